__kernel
void
spread(
  __global
  float4
  *
  data,
  uint  count
)
{
}
