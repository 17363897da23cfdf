// A read-back buffer as a picture: a 2-D result in grey, a read-back image as the colours it holds, and
// what one pixel of such a picture holds (the line under the picture and its tooltip).
#pragma once

#include "models/bufferformat.h"

#include <QImage>

namespace clscope::ui {

// The first component of each element as a grey-scale picture `rowWidth` wide (min black, max white over
// the finite values; NaN magenta), or a null image when there is nothing to draw.
QImage bufferImage(const BufferData &buffer, std::size_t rowWidth);
// A read-back image (BufferData::image) as the picture it holds: colours and alpha as stored (normalized
// and float channels over 0..1), slices of arrays and 3-D images one under the other, as imagedata.h's
// imageToPng lays them out. Null for a buffer that is not an image or a packed format (*why says so).
QImage imagePicture(const BufferData &buffer, QString *why = nullptr);

// The pixel (x, y) of the picture of `buffer` as text ("x 3, y 5: 0.25"; an image's pixel with its
// channels, and what read_imagef gives for normalized types). `pictureWidth` is the width of the picture
// shown (an image's own width when it is shown as itself), `rowWidth` the row width of a grey picture.
// Empty outside the buffer.
QString describePixel(const BufferData &buffer, int pictureWidth, std::size_t rowWidth, NumberFormat format,
                      int x, int y);

} // namespace clscope::ui
