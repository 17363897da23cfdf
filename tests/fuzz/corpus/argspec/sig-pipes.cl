kernel void pp(read_only pipe int in, write_only pipe float4 out) {}
