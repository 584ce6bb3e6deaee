// @tack/code-runtime: Code Mode's sandbox, `ctx.codeRuntime` on a WebAssembly QuickJS isolate (TL-30).
export {
  CodeRuntimeConfig,
  type CodeRuntimeConfigInput,
  CodeRuntimePlugin,
  QuickJSCodeRuntime,
} from './plugin.ts'
export { memoryPages, warmIsolates } from './isolate-pool.ts'
export { runProgram } from './quickjs-run.ts'
export { stripProgram } from './strip.ts'
