// The row shown with a picture in the results viewer: zoom (fit, 1:1, out, in) of a BufferImageView and
// the line that tells the pixel under the mouse.
#pragma once

#include <QWidget>

class QLabel;

namespace clscope::ui {

class BufferImageView;

class ImageZoomBar : public QWidget
{
    Q_OBJECT
public:
    explicit ImageZoomBar(BufferImageView *image, QWidget *parent = nullptr);

    void setPixelText(const QString &text);
    QString pixelText() const;

private:
    QLabel *m_pixel;
};

} // namespace clscope::ui
