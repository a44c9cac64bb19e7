/**
 * The part of the WebAssembly JavaScript API this project uses (the body scan of step 2,
 * src/intake/body/body-scan.ts). Node has it as a global; @types/node 20 does not declare it, and
 * the DOM library that does would bring every browser global with it.
 */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: BufferSource)
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>)
    readonly exports: unknown
  }
  interface MemoryDescriptor {
    /** In pages of 64 KiB. */
    initial: number
    maximum?: number
    shared?: boolean
  }
  class Memory {
    constructor(descriptor: MemoryDescriptor)
    /** A SharedArrayBuffer for a shared memory. */
    readonly buffer: ArrayBuffer | SharedArrayBuffer
  }
  class Global<T = number> {
    value: T
  }
  function validate(bytes: BufferSource): boolean
}
