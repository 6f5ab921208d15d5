// The emulator's prelude: what a CUDA kernel source expects of its compiler, defined for the
// CPU, and the scheduler that runs a launch. Each CUDA thread of a block is a coroutine with
// its own stack, all on the calling OS thread; __syncthreads() yields to the scheduler, which
// resumes every thread of the block in index order, so a barrier means what it means on a GPU.
// Blocks run one after another, which makes __shared__ arrays plain statics and atomicAdd a
// plain add, and every launch deterministic.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define __global__
#define __device__ static inline
#define __shared__ static

struct emu_uint3 { unsigned int x, y, z; };

static emu_uint3 threadIdx, blockIdx, blockDim, gridDim;

static void __syncthreads();

static inline float atomicAdd(float* p, float v)
{
    float old = *p;
    *p = old + v;
    return old;
}

// Stack of one emulated thread: the kernels keep a few scalars and call libm.
static const size_t emu_stack = 64 * 1024;

static char* emu_stacks;          // emu_stack bytes per thread
static unsigned char* emu_done;   // whether each thread has returned
static int emu_cap;               // threads the arrays above hold
static int emu_cur;               // the thread running now
static void (*emu_fn)(void**);    // the launch's trampoline
static void** emu_args;           // its arguments, as for cuLaunchKernel

static int emu_direct;             // whether threads run as plain calls (no barrier expected)
static int emu_missed_barrier;     // whether a plain call reached __syncthreads() anyway

static void emu_entry()
{
    emu_fn(emu_args);
    emu_done[emu_cur] = 1;
}

#if defined(__x86_64__) && !defined(EMU_UCONTEXT)
// On x86-64 (unless EMU_UCONTEXT asks for the portable switch below, as a test does) a switch saves the callee-saved registers on the stack it leaves and its stack
// pointer in *from, then takes up to's. swapcontext would do the same plus a system call for
// the signal mask at every switch, which made barrier-heavy kernels (batch norm's block sums)
// a hundred times slower.
extern "C" __attribute__((visibility("hidden"))) void emu_switch(void** from, void* to);
__asm__(".text\n"
        ".globl emu_switch\n"
        ".hidden emu_switch\n"
        ".type emu_switch, @function\n"
        "emu_switch:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size emu_switch, .-emu_switch\n");

static void* emu_sched;     // the scheduler's saved stack pointer
static void** emu_sp;       // each thread's saved stack pointer

// emu_start is where a thread's first switch returns to; it ends by switching back for good.
static void emu_start()
{
    emu_entry();
    emu_switch(&emu_sp[emu_cur], emu_sched);
    __builtin_unreachable();
}

static int emu_alloc_contexts(int nt)
{
    free(emu_sp);
    emu_sp = (void**)malloc(nt * sizeof(void*));
    return emu_sp != 0;
}

// emu_prepare sets thread t's stack so that the first switch to it pops six zero registers and
// returns into emu_start with the stack aligned as after a call.
static void emu_prepare(int t)
{
    char* top = emu_stacks + (size_t)(t + 1) * emu_stack;
    void** frame = (void**)(((unsigned long long)top & ~15ull) - 16);
    frame[0] = (void*)emu_start;
    frame[1] = 0;
    for (int r = 1; r <= 6; r++) {
        frame[-r] = 0;
    }
    emu_sp[t] = frame - 6;
}

static void emu_yield() { emu_switch(&emu_sp[emu_cur], emu_sched); }
static void emu_resume(int t) { emu_switch(&emu_sched, emu_sp[t]); }
#else
#include <ucontext.h>

static ucontext_t emu_sched;      // the scheduler's context
static ucontext_t* emu_ctx;       // one per thread of a block

static int emu_alloc_contexts(int nt)
{
    free(emu_ctx);
    emu_ctx = (ucontext_t*)malloc(nt * sizeof(ucontext_t));
    return emu_ctx != 0;
}

static void emu_prepare(int t)
{
    getcontext(&emu_ctx[t]);
    emu_ctx[t].uc_stack.ss_sp = emu_stacks + (size_t)t * emu_stack;
    emu_ctx[t].uc_stack.ss_size = emu_stack;
    emu_ctx[t].uc_link = &emu_sched;
    makecontext(&emu_ctx[t], emu_entry, 0);
}

static void emu_yield() { swapcontext(&emu_ctx[emu_cur], &emu_sched); }
static void emu_resume(int t) { swapcontext(&emu_sched, &emu_ctx[t]); }
#endif

static void __syncthreads()
{
    if (emu_direct) {
        emu_missed_barrier = 1;
        return;
    }
    emu_yield();
}

// Return codes of emu_run, read by the Go side.
enum { emu_ok = 0, emu_bad_dims = 1, emu_no_memory = 2, emu_divergent_barrier = 3, emu_unexpected_barrier = 4 };

// emu_call runs every thread of the grid as a plain call, for a kernel without barriers.
static int emu_call(void (*fn)(void**), void** args, long long nb, int nt, int reverse)
{
    emu_direct = 1;
    emu_missed_barrier = 0;
    for (long long bl = 0; bl < nb; bl++) {
        long long bi = reverse ? nb - 1 - bl : bl;
        blockIdx = emu_uint3{(unsigned)(bi % gridDim.x), (unsigned)(bi / gridDim.x % gridDim.y), (unsigned)(bi / ((long long)gridDim.x * gridDim.y))};
        for (int ti = 0; ti < nt; ti++) {
            int t = reverse ? nt - 1 - ti : ti;
            threadIdx = emu_uint3{(unsigned)(t % blockDim.x), (unsigned)(t / blockDim.x % blockDim.y), (unsigned)(t / (blockDim.x * blockDim.y))};
            fn(args);
        }
    }
    emu_direct = 0;
    return emu_missed_barrier ? emu_unexpected_barrier : emu_ok;
}

// emu_run runs fn(args) on a grid of gx*gy*gz blocks of bx*by*bz threads: blocks in index
// order and, between barriers, threads in index order, or both in reverse order where reverse
// is not 0. A GPU promises neither, so a kernel whose result depends on it has a race. Where
// barrier is 0 the kernel has no __syncthreads() and each thread is a plain call.
static int emu_run(void (*fn)(void**), void** args, int gx, int gy, int gz, int bx, int by, int bz, int reverse, int barrier)
{
    if (gx < 1 || gy < 1 || gz < 1 || bx < 1 || by < 1 || bz < 1 || (long long)bx * by * bz > 1024) {
        return emu_bad_dims;
    }
    int nt = bx * by * bz;
    gridDim = emu_uint3{(unsigned)gx, (unsigned)gy, (unsigned)gz};
    blockDim = emu_uint3{(unsigned)bx, (unsigned)by, (unsigned)bz};
    if (!barrier) {
        return emu_call(fn, args, (long long)gx * gy * gz, nt, reverse);
    }
    if (nt > emu_cap) {
        free(emu_stacks);
        free(emu_done);
        int contexts = emu_alloc_contexts(nt);
        emu_stacks = (char*)malloc(nt * emu_stack);
        emu_done = (unsigned char*)malloc(nt);
        if (!contexts || !emu_stacks || !emu_done) {
            emu_cap = 0;
            return emu_no_memory;
        }
        emu_cap = nt;
    }
    emu_fn = fn;
    emu_args = args;
    long long nb = (long long)gx * gy * gz;
    for (long long bl = 0; bl < nb; bl++) {
        long long bi = reverse ? nb - 1 - bl : bl;
        blockIdx = emu_uint3{(unsigned)(bi % gx), (unsigned)(bi / gx % gy), (unsigned)(bi / ((long long)gx * gy))};
        for (int t = 0; t < nt; t++) {
            emu_prepare(t);
            emu_done[t] = 0;
        }
        // Rounds: each runs every waiting thread up to its next barrier or its end. A GPU
        // needs every thread of the block at a barrier, so a round that ends with some
        // threads returned and others waiting is an error.
        for (;;) {
            int waiting = 0;
            for (int ti = 0; ti < nt; ti++) {
                int t = reverse ? nt - 1 - ti : ti;
                if (emu_done[t]) {
                    continue;
                }
                emu_cur = t;
                threadIdx = emu_uint3{(unsigned)(t % bx), (unsigned)(t / bx % by), (unsigned)(t / (bx * by))};
                emu_resume(t);
                waiting += !emu_done[t];
            }
            if (waiting == 0) {
                break;
            }
            if (waiting < nt) {
                return emu_divergent_barrier;
            }
        }
    }
    return emu_ok;
}

// Memory for the Go side, outside Go's heap.
extern "C" void* emu_alloc(long long n) { return calloc(n > 0 ? n : 1, 4); }
extern "C" void emu_free(void* p) { free(p); }
