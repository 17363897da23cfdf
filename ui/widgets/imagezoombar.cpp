// Zoom buttons and the pixel line of a picture.
#include "imagezoombar.h"

#include "bufferimageview.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace clscope::ui {

ImageZoomBar::ImageZoomBar(BufferImageView *image, QWidget *parent)
    : QWidget(parent)
    , m_pixel(new QLabel)
{
    auto *zoom = new QHBoxLayout(this);
    zoom->setContentsMargins(0, 0, 0, 0);
    zoom->setSpacing(2);
    const auto zoomButton = [&](const QString &text, const QString &tip, auto action) {
        auto *b = new QToolButton;
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, action);
        zoom->addWidget(b);
    };
    zoomButton(tr("Fit"), tr("Fit the picture to the area (0)"), [image] { image->fit(); });
    zoomButton(tr("1:1"), tr("One screen pixel per pixel (1)"), [image] { image->setZoom(1); });
    zoomButton(QStringLiteral("−"), tr("Zoom out (-, mouse wheel)"), [image] { image->zoomBy(0.5); });
    zoomButton(QStringLiteral("+"), tr("Zoom in (+, mouse wheel); drag to pan"),
               [image] { image->zoomBy(2); });
    m_pixel->setObjectName(QStringLiteral("resultsPixel"));
    m_pixel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_pixel->setMinimumWidth(
        m_pixel->fontMetrics().horizontalAdvance(QStringLiteral("x 000, y 000: RGBA 255, 255")));
    zoom->addSpacing(6);
    zoom->addWidget(m_pixel, 1);
}

void ImageZoomBar::setPixelText(const QString &text)
{
    m_pixel->setText(text);
}

QString ImageZoomBar::pixelText() const
{
    return m_pixel->text();
}

} // namespace clscope::ui
