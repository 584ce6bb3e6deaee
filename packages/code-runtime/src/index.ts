// @tack/code-runtime: Code Mode's sandbox, `ctx.codeRuntime` on a WebAssembly QuickJS isolate (TL-30).
// This entry loads no WebAssembly; the runner (`@tack/code-runtime/runner`) is imported on first use.
export {
  CodeRuntimeConfig,
  CodeRuntimePlugin,
  QuickJSCodeRuntime,
} from './plugin.ts'
