/* SPDX-License-Identifier: Apache-2.0 */
/* test_prepared_ops.c -- every op with a prepared form (the op spec's data_inputs), over every
 * representative call of op_examples.h: prepared once, its runs call the allocator zero times
 * (tensorx's pool and a runner) and, in a child under a seccomp filter that traps every system
 * call, make none on a runner (Linux).  That runs equal calls is op_prepared_agrees' part
 * (test_plan.c, conform --prepared, the op fuzzers). */
#define _GNU_SOURCE 1
#include "testutil.h"

#include "opreg.h"
#include "op_examples.h"
#include "op_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__) || defined(__s390x__))
#define HAVE_SECCOMP_TEST 1
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#define NEX (sizeof tx_op_examples / sizeof tx_op_examples[0])

/* One example prepared: the op, its data inputs' elements and outputs of the test's own. */
typedef struct prepared {
    const char *name;
    tx_op *op;
    op_args args;
    const void *in[64];
    void *out[TX_OP_MAX_OUTPUTS];
} prepared;

static prepared cases[NEX];
static size_t ncases;

/* A one-thread runner that runs the pieces in order. */
static void serial_for(void *ctx, tx_task_fn task, void *task_ctx, size_t n) {
    (void)ctx;
    for (size_t i = 0; i < n; i++) task(task_ctx, i);
}

/* Prepares every example whose op has a prepared form and whose prepare succeeds (strings
 * refused); fails when an op with data_inputs has no example that prepares. */
static void prepare_all(void) {
    for (size_t i = 0; i < NEX; i++) {
        prepared *p = &cases[ncases];
        memset(p, 0, sizeof *p);
        parse_case(&tx_op_examples[i], &p->args);
        const op_def *d = p->args.def;
        op_outputs o;
        memset(&o, 0, sizeof o);
        o.prepare = &p->op;
        if (!d->data_inputs[0] || d->run(&p->args, &o) != TX_OK) {
            op_outputs_clear(&o);
            op_args_clear(&p->args);
            continue;
        }
        op_outputs_clear(&o);
        size_t n = 0;
        assert_true(op_data_inputs(d, &p->args, p->in, 64, &n));
        assert_int_equal(n, tx_op_input_count(p->op));
        for (size_t k = 0; k < tx_op_output_count(p->op); k++) {
            tx_output_info info = {sizeof info};
            assert_int_equal(tx_op_output(p->op, k, &info), TX_OK);
            p->out[k] = malloc(info.nbytes + 1);
            assert_non_null(p->out[k]);
        }
        p->name = d->name;
        ncases++;
    }
    for (size_t k = 0; op_at(k); k++) {
        if (!op_at(k)->data_inputs[0]) continue;
        bool seen = false;
        for (size_t i = 0; i < ncases && !seen; i++) seen = !strcmp(cases[i].name, op_at(k)->name);
        if (!seen) fail_msg("%s has a prepared form but no example of op_examples.h prepares", op_at(k)->name);
    }
}

static void free_all(void) {
    for (size_t i = 0; i < ncases; i++) {
        for (size_t k = 0; k < tx_op_output_count(cases[i].op); k++) free(cases[i].out[k]);
        tx_op_free(cases[i].op);
        op_args_clear(&cases[i].args);
    }
    ncases = 0;
}

static void test_runs_allocate_nothing(void **state) {
    (void)state;
    prepare_all();
    assert_true(ncases > 0);
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 3);
    for (size_t i = 0; i < ncases; i++) /* the first runs settle the dispatch and the pool */
        (void)tx_op_run(cases[i].op, cases[i].in, cases[i].out, NULL);
    tu_alloc_install();
    long before = tu_alloc_count();
    for (int r = 0; r < 20; r++)
        for (size_t i = 0; i < ncases; i++) {
            (void)tx_op_run(cases[i].op, cases[i].in, cases[i].out, NULL);
            (void)tx_op_run(cases[i].op, cases[i].in, cases[i].out, &serial);
        }
    long calls = tu_alloc_count() - before;
    tu_alloc_uninstall();
    if (calls) fail_msg("%ld allocator calls in %zu runs", calls, 40 * ncases);
    free_all();
}

#ifdef HAVE_SECCOMP_TEST
static volatile sig_atomic_t syscalls_seen;
static void on_sigsys(int sig, siginfo_t *info, void *uc) {
    (void)sig;
    (void)info;
    (void)uc;
    syscalls_seen++;
}

static void test_runs_make_no_system_calls(void **state) {
    (void)state;
    if (getenv("TX_TEST_EMULATOR")) skip(); /* the emulator's or valgrind's own calls trap too */
    prepare_all();
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 3);
    for (size_t i = 0; i < ncases; i++) (void)tx_op_run(cases[i].op, cases[i].in, cases[i].out, &serial);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_sigsys;
        sa.sa_flags = SA_SIGINFO;
        if (sigaction(SIGSYS, &sa, NULL) != 0) _exit(254);
        struct sock_filter prog[] = {
            BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
            BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigreturn, 3, 0),
            BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit_group, 2, 0),
            BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit, 1, 0),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        struct sock_fprog fprog = {sizeof prog / sizeof prog[0], prog};
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) _exit(253);
        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog) != 0) _exit(252);
        for (int r = 0; r < 20; r++)
            for (size_t i = 0; i < ncases; i++) (void)tx_op_run(cases[i].op, cases[i].in, cases[i].out, &serial);
        (void)syscall(SYS_getpid); /* one deliberate call shows that the filter counts */
        syscall(SYS_exit_group, syscalls_seen > 250 ? 250 : (int)syscalls_seen);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    int seen = WEXITSTATUS(status);
    free_all();
    if (seen >= 252) skip(); /* no seccomp here (a container that forbids it) */
    if (seen != 1) fail_msg("%d system calls in %zu runs on a runner (1 deliberate)", seen, 20 * ncases);
}
#endif

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_allocate_nothing),
#ifdef HAVE_SECCOMP_TEST
        cmocka_unit_test(test_runs_make_no_system_calls),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
