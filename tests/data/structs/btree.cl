// Rodinia b+tree's node (its kernels' knode, with 3 keys for DEFAULT_ORDER+1): a bool field, read through a
// pointer (OpenCL C allows no bool in a struct passed by value). numpy writes the field as '|b1'.
typedef struct knode
{
    int location;
    int indices[3];
    int keys[3];
    bool is_leaf;
    int num_keys;
} knode;

__kernel void leaf_keys(__global const knode *nodes, __global int *out)
{
    const int i = get_global_id(0);
    out[i] = nodes[i].is_leaf ? nodes[i].keys[0] + nodes[i].num_keys : -1;
}
