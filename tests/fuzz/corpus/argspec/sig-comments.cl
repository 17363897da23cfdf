/* __kernel void fake(int x) {} */
// kernel void also(int y)
__kernel void real(int x /* , int hidden */) {}
