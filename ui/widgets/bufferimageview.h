// A 2-D result or a read-back image as a picture: scaled to fit with square pixels and no smoothing (a
// pixel of the buffer stays a sharp block), or zoomed (wheel, +/-, 1:1) and panned (drag) by the user;
// the pixel under the mouse is reported as it moves (hovered) and described in the tooltip.
#pragma once

#include <QImage>
#include <QPointF>
#include <QWidget>

#include <functional>
#include <optional>

namespace clscope::ui {

class BufferImageView : public QWidget
{
    Q_OBJECT
public:
    explicit BufferImageView(QWidget *parent = nullptr);

    // A new picture of the same size keeps the zoom and the place (the next run of the same kernel); one
    // of another size is fitted.
    void setImage(QImage image);
    const QImage &image() const { return m_image; }
    // Text for the element at (x, y) of the image, shown as the tooltip.
    void setDescriber(std::function<QString(int x, int y)> describe) { m_describe = std::move(describe); }

    // Screen pixels per image pixel; 0 while the picture is fitted to the area.
    double zoom() const { return m_zoom; }
    // The scale in use: the fitted one, or the zoom.
    double scale() const;
    // Zooms to `zoom` (clamped to 1/64..256) keeping the image point under `anchor` (a widget position)
    // where it is; without an anchor, around the centre of the area.
    void setZoom(double zoom, std::optional<QPoint> anchor = std::nullopt);
    void zoomBy(double factor, std::optional<QPoint> anchor = std::nullopt);
    void fit();

    // Where the image is drawn, and the image pixel under a widget position (or (-1, -1)).
    QRect imageRect() const;
    QPoint pixelAt(const QPoint &pos) const;

    QSize sizeHint() const override { return {320, 200}; }
    QSize minimumSizeHint() const override { return {40, 40}; }

signals:
    // The pixel under the mouse, (-1, -1) when it leaves the picture.
    void hovered(int x, int y);
    void zoomChanged(double scale);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    QRect area() const;
    QRectF zoomedRect() const;

    QImage m_image;
    std::function<QString(int, int)> m_describe;
    double m_zoom = 0; // 0: fit
    QPointF m_centre;  // the image point at the centre of the area while zoomed
    std::optional<QPoint> m_dragFrom;
    QPointF m_dragCentre;
    QPoint m_hovered{-1, -1};
};

} // namespace clscope::ui
