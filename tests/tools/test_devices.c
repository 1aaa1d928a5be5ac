/* The GPU side of the command line (src/tools/devices.c): the NQ_CUDA_* tuning variables
 * become nq_settings.gpu, read as the library read them before it stopped reading the
 * environment: counts strictly (trailing text or 0: the built-in value), the two device
 * figures as atoi does. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "tools/count_opts.h"
#include "tools/devices.h"

static void unset_all(void)
{
    static const char *const names[] = {"NQ_CUDA_SUBTASKS", "NQ_CUDA_CHUNKS", "NQ_CUDA_CHUNK_SUBS",
                                        "NQ_CUDA_BLOCKS_PER_SM", "NQ_CUDA_CARVEOUT"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        unsetenv(names[i]);
}

Test(unit, tuning_comes_from_the_environment)
{
    nq_gpu_settings g;

    unset_all();
    devices_env(&g);
    cr_expect(g.subtasks == 0 && g.chunks == 0 && g.chunk_subtasks == 0 && g.blocks_per_sm == 0 &&
              g.carveout == 0);
    setenv("NQ_CUDA_SUBTASKS", "1000000", 1);
    setenv("NQ_CUDA_CHUNKS", "64", 1);
    setenv("NQ_CUDA_CHUNK_SUBS", "40", 1);
    setenv("NQ_CUDA_BLOCKS_PER_SM", "4", 1);
    setenv("NQ_CUDA_CARVEOUT", "100", 1);
    devices_env(&g);
    cr_expect_eq(g.subtasks, 1000000);
    cr_expect_eq(g.chunks, 64);
    cr_expect_eq(g.chunk_subtasks, 40);
    cr_expect_eq(g.blocks_per_sm, 4);
    cr_expect_eq(g.carveout, 100);
    setenv("NQ_CUDA_SUBTASKS", "12x", 1);
    setenv("NQ_CUDA_CHUNKS", "", 1);
    setenv("NQ_CUDA_CHUNK_SUBS", "0", 1);
    setenv("NQ_CUDA_BLOCKS_PER_SM", "3x", 1);
    devices_env(&g);
    cr_expect_eq(g.subtasks, 0);
    cr_expect_eq(g.chunks, 0);
    cr_expect_eq(g.chunk_subtasks, 0);
    cr_expect_eq(g.blocks_per_sm, 3);
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
