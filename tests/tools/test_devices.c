/* The GPU side of the command line (src/tools/devices.c): the NQ_CUDA_* tuning variables
 * become nq_settings.gpu, read as the library read them before it stopped reading the
 * environment: counts strictly (trailing text or 0: the built-in value), the two device
 * figures as atoi does. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "tools/count_opts.h"
#include "tools/devices.h"

/* The variables, in the order of their nq_gpu_settings members. */
static const char *const names[] = {"NQ_CUDA_SUBTASKS", "NQ_CUDA_CHUNKS", "NQ_CUDA_CHUNK_SUBS",
                                    "NQ_CUDA_BLOCKS_PER_SM", "NQ_CUDA_CARVEOUT"};
#define N_NAMES (sizeof(names) / sizeof(names[0]))

static void unset_all(void)
{
    for (size_t i = 0; i < N_NAMES; i++)
        unsetenv(names[i]);
}

Test(unit, tuning_comes_from_the_environment)
{
    /* Each row sets every variable (NULL: unset) and says what devices_env reads. */
    static const struct {
        const char *value[N_NAMES];
        uint64_t want[N_NAMES];
    } cases[] = {
        {{NULL, NULL, NULL, NULL, NULL}, {0, 0, 0, 0, 0}},
        {{"1000000", "64", "40", "4", "100"}, {1000000, 64, 40, 4, 100}},
        /* counts strictly (trailing text, empty or 0: the built-in value), the device
         * figures as atoi does */
        {{"12x", "", "0", "3x", "100"}, {0, 0, 0, 3, 100}},
    };

    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        nq_gpu_settings g;
        uint64_t got[N_NAMES];
        for (size_t i = 0; i < N_NAMES; i++)
            if (cases[c].value[i])
                setenv(names[i], cases[c].value[i], 1);
            else
                unsetenv(names[i]);
        devices_env(&g);
        got[0] = g.subtasks;
        got[1] = g.chunks;
        got[2] = g.chunk_subtasks;
        got[3] = (uint64_t)g.blocks_per_sm;
        got[4] = (uint64_t)g.carveout;
        for (size_t i = 0; i < N_NAMES; i++)
            cr_expect_eq(got[i], cases[c].want[i], "case %zu: %s=%s", c, names[i],
                         cases[c].value[i] ? cases[c].value[i] : "(unset)");
    }
    unset_all();
}

/* Every command's settings carry them: count_opts_settings reads the environment. */
Test(unit, settings_carry_the_tuning)
{
    count_opts o;
    nq_settings s;

    unset_all();
    setenv("NQ_CUDA_CHUNKS", "4", 1);
    count_opts_default(&o);
    count_opts_settings(&o, 12, &s);
    cr_expect_eq(s.gpu.chunks, 4);
    cr_expect_eq(s.gpu.subtasks, 0);
    unset_all();
}

Test(unit, devices_lists)
{
    uint64_t m = 99;
    cr_expect_eq(devices_parse("all", &m), 0);
    cr_expect_eq(m, 0);
    cr_expect_eq(devices_parse("0,2-3", &m), 0);
    cr_expect_eq(m, 0xd);
    cr_expect_eq(devices_parse("1,", &m), -1);
    cr_expect_eq(devices_parse("64", &m), -1);
    cr_expect_eq(devices_parse("3-1", &m), -1);
}
