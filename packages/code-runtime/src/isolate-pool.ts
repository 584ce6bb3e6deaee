// WebAssembly instances of QuickJS, one per run (docs/decisions/0080-code-runtime.md). QuickJS's own
// memory limit does not count every allocation in this build (buffers grown by realloc slip past
// it), and a WebAssembly memory never shrinks: one memory bomb in a shared instance would leave the
// process gigabytes larger for the rest of the session. So each run gets a fresh instance whose
// `WebAssembly.Memory` has a hard `maximum` derived from `memoryBytes`, dropped with the run. The
// module is compiled once; one spare instance is prepared after each run so the next starts warm.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import variant from '@jitl/quickjs-wasmfile-release-sync'
import {
  type CustomizeVariantOptions,
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core'

/**
 * The part of the WebAssembly JS API used here. Node has it as a global, but the project's `lib`
 * (es2024, no DOM) does not type it; quickjs-emscripten-core's own declarations accept these values.
 */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<WasmModule>
  Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory
}
type WasmModule = object
type WasmMemory = { readonly buffer: ArrayBuffer }
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly

// Sizes in wasm pages, written as the bytes they stand for.
const MiB = 1024 * 1024
/** A wasm memory page. */
const PAGE = 64 * 1024
/** The initial memory the QuickJS build declares; an import smaller than this is refused. */
const INITIAL_PAGES = (16 * MiB) / PAGE
/** Room beyond `memoryBytes` for QuickJS's own stack and static data, so its limit trips first. */
const HEADROOM_PAGES = (16 * MiB) / PAGE
/** wasm32 addresses at most 4 GiB. */
const MAX_PAGES = 2 ** 32 / PAGE

export interface Isolate {
  readonly qjs: QuickJSWASMModule
  readonly memoryBytes: number
  /** The instance's memory: its size is the heap's high-water mark (it never shrinks). */
  readonly memory: WasmMemory
}

/**
 * What the QuickJS build prints goes nowhere. It prints only when it aborts (`Aborted(…)`, e.g. an
 * assertion when a runtime is freed after an out-of-memory), and that text also arrives as the
 * RuntimeError the host catches; on tack's stderr it would be noise in the middle of a run.
 */
// `emscriptenModule` is passed to emscripten verbatim (the library documents this); its type lists the
// loader hooks only, not emscripten's print hooks, hence the cast.
const SILENT = {
  print: () => {},
  printErr: () => {},
} as unknown as CustomizeVariantOptions['emscriptenModule']

let compiled: Promise<WasmModule> | undefined
let spare: Promise<Isolate> | undefined

function compiledModule(): Promise<WasmModule> {
  compiled ??= (async () => {
    const entry = createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync')
    return wasm.compile(await readFile(join(dirname(entry), 'emscripten-module.wasm')))
  })()
  return compiled
}

export function memoryPages(memoryBytes: number): number {
  return Math.min(MAX_PAGES, Math.max(INITIAL_PAGES, Math.ceil(memoryBytes / PAGE) + HEADROOM_PAGES))
}

async function instantiate(memoryBytes: number): Promise<Isolate> {
  const wasmMemory = new wasm.Memory({ initial: INITIAL_PAGES, maximum: memoryPages(memoryBytes) })
  const wasmModule = await compiledModule()
  const qjs = await newQuickJSWASMModuleFromVariant(
    newVariant(variant, { wasmModule, wasmMemory, emscriptenModule: SILENT }),
  )
  return { qjs, memoryBytes, memory: wasmMemory }
}

/** A fresh instance for one run; prepares the next run's spare in the background. */
export async function takeIsolate(memoryBytes: number): Promise<Isolate> {
  const ready = spare
  spare = instantiate(memoryBytes)
  // A failed spare is retried by the next take, which instantiates directly.
  spare.catch(() => {
    spare = undefined
  })
  const isolate = ready ? await ready.catch(() => undefined) : undefined
  return isolate && isolate.memoryBytes === memoryBytes ? isolate : instantiate(memoryBytes)
}

/** Compiles the module and prepares a spare now, so the first run starts warm (e.g. at boot in code mode). */
export function warmIsolates(memoryBytes: number): void {
  if (spare) return
  spare = instantiate(memoryBytes)
  spare.catch(() => {
    spare = undefined
  })
}
