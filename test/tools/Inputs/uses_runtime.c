/* Calls the runtime without being instrumented, so that a link pulls the
 * runtime's countdown code in without the plugin. Never run. */
#include <stdint.h>

int64_t __sampler_next_countdown(int64_t unknown);

int main(void) { return __sampler_next_countdown(1) == 0; }
