#include "plan-priv.h"
int plan_layout(const struct lab_host *h, const struct lab_storage_req *r, struct lab_plan **p, struct lab_err *e)
{ (void)h; (void)r; (void)p; return lab_err_set(e, LAB_EXIT_INPUT, "layout files: not yet"); }
