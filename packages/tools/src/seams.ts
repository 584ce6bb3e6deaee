// The tool seams (30-tools.md §3, TL-31), declared as typed cordis events. Each listener gets a
// frozen `ToolExecution`: its data (`arguments`) is deep-frozen; `agent` and `signal` are the live
// objects. All four are waterfalls: calling `next()` delegates, returning without it answers for
// everything downstream, including the built-in behaviour. A throwing listener turns the call into
// `PLUGIN_ERROR` naming the seam and its plugin (TL-8).
import { declareSeamPhases, type Waterfall } from '@tack/kernel'
import type {
  PermissionAsk,
  PermissionRequestDecision,
  PostToolDecision,
  PreToolDecision,
  ToolAnswer,
  ToolExecution,
  ToolExecutionResult,
} from './types.ts'

declare module 'cordis' {
  interface Events {
    /**
     * @mode waterfall — outermost, wraps the whole per-call pipeline (look-up, validation,
     * pre-execute, approval, execute, post-execute). Result: the call's result; a listener may answer
     * without `next()` (no body and no inner seam runs; logged as `tool/answered`) or pass
     * `next({...exec, rawArguments})` to rewrite the argument text before validation (logged as
     * `tool/arguments-rewritten`). Of a replaced exec only `rawArguments` and `signal` are used.
     */
    'tools/call': Waterfall<[exec: ToolExecution], ToolAnswer, [exec?: ToolExecution], ToolExecutionResult>
    /**
     * @mode waterfall — after validation, before the body. Result: `PreToolDecision`, default
     * `{action: 'allow'}`; `deny` ends the call `DENIED`; `ask` goes to `ctx.approval`; `arguments`
     * replaces the input, validated again and logged (TL-32). A throw means the body never runs.
     */
    'tools/pre-execute': Waterfall<[exec: ToolExecution], PreToolDecision>
    /**
     * @mode waterfall — an `ask` is about to go to `ctx.approval` (after `tools/pre-execute`, its rewrite
     * applied). Result: `ask` (default) puts the question to the approver (none: denied, as before);
     * `allow` runs the call without asking — `arguments` replaces the input, validated again and logged
     * (TL-32); `deny` ends the call `DENIED` with `reason` for the model. Either answer is logged as
     * `approval/resolved` by `rule`. A throw or a malformed decision ends the call `PLUGIN_ERROR`.
     */
    'tools/permission-request': Waterfall<
      [exec: ToolExecution, ask: PermissionAsk],
      PermissionRequestDecision
    >
    /**
     * @mode waterfall — around the body, for timeouts, retries and metrics. Result: the body's
     * `ToolExecutionResult` (a throwing body arrives as a `TOOL_FAILED` result, never an exception).
     * `next({...exec, signal})` swaps the body's signal (only `signal` is taken from the replacement);
     * `next` may be called more than once, to retry.
     */
    'tools/execute': Waterfall<[exec: ToolExecution], ToolExecutionResult, [exec?: ToolExecution]>
    /**
     * @mode waterfall — after every body that ran (including thrown and timed-out ones). Result:
     * `PostToolDecision`, default `{action: 'accept'}`; `accept` may replace the content; `block` puts
     * `feedback` in its place, sets `isError` and code `BLOCKED`, and keeps `meta`.
     */
    'tools/post-execute': Waterfall<[exec: ToolExecution, result: ToolExecutionResult], PostToolDecision>
  }
}

// The order these waterfalls run in is declared here, not left to load order (packages/kernel/src/seam-phases.ts,
// docs/decisions/0205-seam-phases.md). A listener that names no phase runs in the last one.
declareSeamPhases('tools/call', {
  outermost: "a Claude Code mod's `tool.call`: wraps the whole pipeline, as Claude Code's does",
  plugins: "every other listener, the user's plugins among them",
})
declareSeamPhases('tools/pre-execute', {
  outermost: "a Claude Code mod's `tool.check`: calls `next()` and gets the verdict of everything below",
  hooks:
    "the host hook bridges' `PreToolUse`: upstream of the policy, so a hook's `allow` answers the mode's `ask` while a downstream deny still stands (40-hooks.md B6); a rewritten input is what the rules judge",
  policy: 'the permission plugin: the mode and the rules',
  plugins:
    "the user's plugins: they see a call only when the mode, the hooks and the rules let it through, and can still deny it",
})
