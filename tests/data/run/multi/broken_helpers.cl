// helpers.cl with an error on line 5: its diagnostic must name this file and line, not main.cl.
float scale(float x, float k)
{
    float y = x * k;
    return y + undeclared_value;
}
