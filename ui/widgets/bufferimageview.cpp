// The picture of a 2-D result or of an image: fit, zoom, pan, and the pixel under the mouse.
#include "bufferimageview.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPixmap>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace clscope::ui {

namespace {
constexpr double kMinZoom = 1.0 / 64;
constexpr double kMaxZoom = 256;
} // namespace

BufferImageView::BufferImageView(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("resultsImage"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus); // + - 0 1 from the keyboard
}

void BufferImageView::setImage(QImage image)
{
    if (image.size() != m_image.size())
        m_zoom = 0;
    m_image = std::move(image);
    update();
}

QRect BufferImageView::area() const
{
    return rect().adjusted(2, 2, -2, -2);
}

double BufferImageView::scale() const
{
    if (m_image.isNull())
        return 1;
    if (m_zoom > 0)
        return m_zoom;
    const QRect a = area();
    // Whole-number zoom when the picture is smaller than the area keeps every pixel the same size.
    const double fit = std::min(double(a.width()) / m_image.width(), double(a.height()) / m_image.height());
    return fit >= 1 ? std::floor(fit) : fit;
}

QRectF BufferImageView::zoomedRect() const
{
    const double s = scale();
    const QRect a = area();
    const QSizeF size(m_image.width() * s, m_image.height() * s);
    if (m_zoom <= 0)
        return QRectF(
            QPointF(a.left() + (a.width() - size.width()) / 2, a.top() + (a.height() - size.height()) / 2),
            size);
    return QRectF(QPointF(a.center()) - m_centre * s, size);
}

QRect BufferImageView::imageRect() const
{
    if (m_image.isNull())
        return {};
    const QRectF r = zoomedRect();
    return QRect(QPoint(int(std::floor(r.left())), int(std::floor(r.top()))),
                 QSize(std::max(1, int(std::lround(r.width()))), std::max(1, int(std::lround(r.height())))));
}

QPoint BufferImageView::pixelAt(const QPoint &pos) const
{
    if (m_image.isNull())
        return {-1, -1};
    const QRectF r = zoomedRect();
    const double s = scale();
    const double x = std::floor((pos.x() + 0.5 - r.left()) / s);
    const double y = std::floor((pos.y() + 0.5 - r.top()) / s);
    if (x < 0 || y < 0 || x >= m_image.width() || y >= m_image.height())
        return {-1, -1};
    return {int(x), int(y)};
}

void BufferImageView::setZoom(double zoom, std::optional<QPoint> anchor)
{
    if (m_image.isNull())
        return;
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    const QPointF at = anchor ? QPointF(*anchor) : QPointF(area().center());
    // The image point under the anchor, before and after: the same.
    const QRectF before = zoomedRect();
    const double oldScale = scale();
    const QPointF imagePoint = (at - before.topLeft()) / oldScale;
    m_zoom = zoom;
    m_centre = imagePoint - (at - QPointF(area().center())) / zoom;
    update();
    emit zoomChanged(m_zoom);
}

void BufferImageView::zoomBy(double factor, std::optional<QPoint> anchor)
{
    setZoom(scale() * factor, anchor);
}

void BufferImageView::fit()
{
    m_zoom = 0;
    update();
    emit zoomChanged(scale());
}

bool BufferImageView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QPoint p = pixelAt(help->pos());
        if (p.x() >= 0 && m_describe)
            QToolTip::showText(help->globalPos(), m_describe(p.x(), p.y()), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void BufferImageView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    if (m_image.isNull()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No picture: the run is not 2-D"));
        return;
    }
    p.setClipRect(area());
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    if (m_image.hasAlphaChannel()) {
        // Transparent pixels over a checkerboard, as image editors show them.
        QPixmap checker(16, 16);
        checker.fill(QColor(0xcc, 0xcc, 0xcc));
        QPainter c(&checker);
        c.fillRect(0, 0, 8, 8, QColor(0x99, 0x99, 0x99));
        c.fillRect(8, 8, 8, 8, QColor(0x99, 0x99, 0x99));
        c.end();
        p.fillRect(zoomedRect(), QBrush(checker));
    }
    p.drawImage(zoomedRect(), m_image);
    // The scale in the corner, so that a zoomed picture is never taken for the whole one.
    const QString text = m_zoom > 0 ? tr("%1 %").arg(std::lround(m_zoom * 100))
                                    : tr("fit %1 %").arg(std::lround(scale() * 100));
    const QRect box = p.fontMetrics().boundingRect(text).adjusted(-4, -2, 4, 2);
    const QRect at(area().bottomRight() - QPoint(box.width() + 2, box.height() + 2), box.size());
    p.fillRect(at, QColor(0, 0, 0, 140));
    p.setPen(Qt::white);
    p.drawText(at, Qt::AlignCenter, text);
}

void BufferImageView::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0 || m_image.isNull())
        return;
    zoomBy(std::pow(1.25, steps), event->position().toPoint());
    event->accept();
}

void BufferImageView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && m_zoom > 0) {
        m_dragFrom = event->position().toPoint();
        m_dragCentre = m_centre;
        setCursor(Qt::ClosedHandCursor);
    }
    QWidget::mousePressEvent(event);
}

void BufferImageView::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    if (m_dragFrom) {
        m_centre = m_dragCentre - QPointF(pos - *m_dragFrom) / scale();
        update();
    }
    const QPoint p = pixelAt(pos);
    if (p != m_hovered) {
        m_hovered = p;
        emit hovered(p.x(), p.y());
    }
    QWidget::mouseMoveEvent(event);
}

void BufferImageView::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_dragFrom && event->button() == Qt::LeftButton) {
        m_dragFrom.reset();
        unsetCursor();
    }
    QWidget::mouseReleaseEvent(event);
}

void BufferImageView::mouseDoubleClickEvent(QMouseEvent *event)
{
    // Double click: fit, or from the fitted picture 1:1 at the clicked point.
    if (m_zoom > 0)
        fit();
    else
        setZoom(std::max(1.0, scale() * 4), event->position().toPoint());
}

void BufferImageView::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(2);
        break;
    case Qt::Key_Minus:
        zoomBy(0.5);
        break;
    case Qt::Key_0:
        fit();
        break;
    case Qt::Key_1:
        setZoom(1);
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

void BufferImageView::leaveEvent(QEvent *event)
{
    if (m_hovered.x() >= 0) {
        m_hovered = {-1, -1};
        emit hovered(-1, -1);
    }
    QWidget::leaveEvent(event);
}

} // namespace clscope::ui
