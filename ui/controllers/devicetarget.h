// A device that a build matrix or a run on every device works on: its id (for its worker and the build),
// and the names a table shows.
#pragma once

#include <CL/cl.h>

#include <QString>

namespace clscope::ui {

struct DeviceTarget
{
    cl_device_id id = nullptr;
    QString name;     // CL_DEVICE_NAME
    QString platform; // CL_PLATFORM_NAME (NVIDIA's gets -cl-nv-verbose in a matrix)
};

} // namespace clscope::ui
