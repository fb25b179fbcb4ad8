//===- Fiber.cpp - Cooperative threads for a block's GPU threads ----------===//
#include "host/Fiber.h"

#include <cstdint>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace hlo::runtime {

FiberStack::FiberStack(size_t bytes) {
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  size = (bytes + page - 1) / page * page;
  mappedSize = size + page;
  void *memory = mmap(nullptr, mappedSize, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED)
    return;
  mapping = static_cast<char *>(memory);
  // The lowest page traps a stack overflow instead of corrupting memory.
  mprotect(mapping, page, PROT_NONE);
  base = mapping + page;
}

FiberStack::~FiberStack() {
  if (mapping)
    munmap(mapping, mappedSize);
}

#if defined(__x86_64__)

// hlo_fiber_switch(void **saveStack, void *resumeStack): pushes the
// callee-saved registers (System V: rbp, rbx, r12-r15) and the SSE and x87
// control words, saves the stack pointer, loads the other one and pops the
// same in reverse. A new fiber's stack is laid out as if it had been
// suspended here, with hlo_fiber_start as the return address.
extern "C" void hlo_fiber_switch(void **saveStack, void *resumeStack);
extern "C" void hlo_fiber_start();
asm(R"(
  .text
  .p2align 4
  .type hlo_fiber_switch, @function
hlo_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $16, %rsp
  stmxcsr 8(%rsp)
  fnstcw (%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr 8(%rsp)
  fldcw (%rsp)
  addq $16, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size hlo_fiber_switch, .-hlo_fiber_switch

  .p2align 4
  .type hlo_fiber_start, @function
hlo_fiber_start:
  movq %r13, %rdi
  callq *%r12
  ud2
  .size hlo_fiber_start, .-hlo_fiber_start
)");

void makeFiber(FiberContext &context, FiberStack &stack, void (*entry)(void *),
               void *argument) {
  // From the 16-byte aligned top: the return address at top - 8 (so that
  // hlo_fiber_start calls with an aligned stack), then rbp, rbx, r12 (the
  // entry), r13 (its argument), r14, r15, and the control words.
  auto *top = reinterpret_cast<uint64_t *>(reinterpret_cast<uintptr_t>(stack.top()) &
                                           ~uintptr_t(15));
  uint64_t *slot = top - 1;
  *slot-- = reinterpret_cast<uint64_t>(&hlo_fiber_start);
  *slot-- = 0;                                     // rbp
  *slot-- = 0;                                     // rbx
  *slot-- = reinterpret_cast<uint64_t>(entry);     // r12
  *slot-- = reinterpret_cast<uint64_t>(argument);  // r13
  *slot-- = 0;                                     // r14
  *slot = 0;                                       // r15
  slot -= 2;
  // x87 control word (default 0x037f) at the low end, MXCSR (0x1f80) above.
  slot[0] = 0x037f;
  slot[1] = 0x1f80;
  context.state = slot;
}

void switchFiber(FiberContext &from, FiberContext &to) {
  hlo_fiber_switch(&from.state, to.state);
}

void destroyFiber(FiberContext &) {}

#else

namespace {

// Other architectures: ucontext. The state points at one of these.
struct UcontextFiber {
  ucontext_t context;
  void (*entry)(void *) = nullptr;
  void *argument = nullptr;
};

// makecontext passes int arguments: the fiber's address in two halves.
void startUcontextFiber(unsigned high, unsigned low) {
  auto *fiber = reinterpret_cast<UcontextFiber *>((uintptr_t(high) << 32) | low);
  fiber->entry(fiber->argument);
  __builtin_trap(); // entries never return
}

UcontextFiber &fiberOf(FiberContext &context) {
  if (!context.state)
    context.state = new UcontextFiber();
  return *static_cast<UcontextFiber *>(context.state);
}

} // namespace

void makeFiber(FiberContext &context, FiberStack &stack, void (*entry)(void *),
               void *argument) {
  UcontextFiber &fiber = fiberOf(context);
  fiber.entry = entry;
  fiber.argument = argument;
  getcontext(&fiber.context);
  fiber.context.uc_stack.ss_sp = stack.bottom();
  fiber.context.uc_stack.ss_size = static_cast<size_t>(stack.top() - stack.bottom());
  fiber.context.uc_link = nullptr;
  auto address = reinterpret_cast<uintptr_t>(&fiber);
  makecontext(&fiber.context, reinterpret_cast<void (*)()>(&startUcontextFiber), 2,
              static_cast<unsigned>(address >> 32), static_cast<unsigned>(address));
}

void switchFiber(FiberContext &from, FiberContext &to) {
  swapcontext(&fiberOf(from).context, &fiberOf(to).context);
}

void destroyFiber(FiberContext &context) {
  delete static_cast<UcontextFiber *>(context.state);
  context.state = nullptr;
}

#endif

} // namespace hlo::runtime
