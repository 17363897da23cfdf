// A 2-D result as a picture: the image scaled to fit with square pixels and no smoothing (a pixel of the
// buffer stays a sharp block), and the element under the mouse in the tooltip.
#pragma once

#include <QImage>
#include <QWidget>

#include <functional>

namespace clscope::ui {

class BufferImageView : public QWidget
{
    Q_OBJECT
public:
    explicit BufferImageView(QWidget *parent = nullptr);

    void setImage(QImage image);
    const QImage &image() const { return m_image; }
    // Text for the element at (x, y) of the image, shown as the tooltip.
    void setDescriber(std::function<QString(int x, int y)> describe) { m_describe = std::move(describe); }

    // Where the image is drawn, and the image pixel under a widget position (or (-1, -1)).
    QRect imageRect() const;
    QPoint pixelAt(const QPoint &pos) const;

    QSize sizeHint() const override { return {320, 200}; }
    QSize minimumSizeHint() const override { return {40, 40}; }

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    QImage m_image;
    std::function<QString(int, int)> m_describe;
};

} // namespace clscope::ui
