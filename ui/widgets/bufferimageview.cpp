// The picture of a 2-D result.
#include "bufferimageview.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace clscope::ui {

BufferImageView::BufferImageView(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("resultsImage"));
    setMouseTracking(true);
}

void BufferImageView::setImage(QImage image)
{
    m_image = std::move(image);
    update();
}

QRect BufferImageView::imageRect() const
{
    if (m_image.isNull())
        return {};
    const QRect area = rect().adjusted(2, 2, -2, -2);
    // Whole-number zoom when the picture is smaller than the area keeps every pixel the same size.
    const double fit =
        std::min(double(area.width()) / m_image.width(), double(area.height()) / m_image.height());
    const double scale = fit >= 1 ? std::floor(fit) : fit;
    const QSize size(std::max(1, int(m_image.width() * scale)), std::max(1, int(m_image.height() * scale)));
    return QRect(area.topLeft() +
                     QPoint((area.width() - size.width()) / 2, (area.height() - size.height()) / 2),
                 size);
}

QPoint BufferImageView::pixelAt(const QPoint &pos) const
{
    const QRect r = imageRect();
    if (!r.contains(pos))
        return {-1, -1};
    const int x =
        std::min(m_image.width() - 1, int(double(pos.x() - r.left()) * m_image.width() / r.width()));
    const int y =
        std::min(m_image.height() - 1, int(double(pos.y() - r.top()) * m_image.height() / r.height()));
    return {x, y};
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
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(imageRect(), m_image);
}

} // namespace clscope::ui
