// Test header for the build tests: it draws a warning of its own (array index past the end).
inline float twice(float v)
{
    int a[2];
    a[3] = 1;
    return v * 2.0f;
}
