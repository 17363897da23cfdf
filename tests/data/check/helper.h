// A helper with the bug inside: Oclgrind reports the header's line, with the header's name.
inline float next(__global const float *p, size_t i)
{
    return p[i + 1]; // line 4: invalid read in the last work-item
}
