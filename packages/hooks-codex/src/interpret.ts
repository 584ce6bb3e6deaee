// Codex's per-event reading of one decoded hook output (40-hooks.md C5, protocols.md §B.6–B.7). The
// shared codec has already applied Codex's exit-code and stdout rules (exit 0 JSON object or plain
// text, `{`/`[` that is not an object fails, exit 2 blocks with stderr, anything else fails); this
// file applies what Codex then accepts per event — block only, with a non-empty reason — and turns
// everything else into either a failed run (what Codex itself calls a hook failure) or an ignored
// field with a warning. The result is what is logged as `hook/result` and what the merge folds.
import type { HookOutput } from '@tack/hook-protocol'
import type { CodexPoint } from './events.ts'
import { readPermissionOutput } from './interpret-permission.ts'

export interface Interpreted {
  readonly output: HookOutput
  /** Fields that were logged but have no effect here, one line each. */
  readonly warnings: readonly string[]
}

const nonEmpty = (s: string | undefined): string | undefined => (s && s.trim() !== '' ? s : undefined)

function failedAs(output: HookOutput, failure: string): HookOutput {
  return {
    ...(output.exitCode !== undefined ? { exitCode: output.exitCode } : {}),
    ...(output.signal !== undefined ? { signal: output.signal } : {}),
    stdout: output.stdout,
    stderr: output.stderr,
    json: output.json,
    failed: true,
    failure,
    ...(output.systemMessage !== undefined ? { systemMessage: output.systemMessage } : {}),
  }
}

type Mutable = { -readonly [K in keyof HookOutput]: HookOutput[K] }

function without(output: HookOutput, ...keys: Array<keyof HookOutput>): HookOutput {
  const copy: Mutable = { ...output }
  for (const k of keys) delete copy[k]
  return copy
}

/** Reads `output` as Codex reads an output of `point`. A failed output passes through unchanged. */
export function interpretCodexOutput(point: CodexPoint, output: HookOutput): Interpreted {
  if (output.failed) return { output, warnings: [] }
  const warnings: string[] = []
  let out = output
  const exit2 = output.exitCode === 2
  for (const key of output.unsupported ?? []) warnings.push(`${key} is not supported and was ignored`)

  switch (point) {
    case 'PreToolUse': {
      if (out.continue === false)
        return { output: failedAs(out, 'continue:false is not supported on PreToolUse'), warnings }
      if (out.decision === 'approve')
        return { output: failedAs(out, 'decision "approve" is not supported'), warnings }
      if (out.decision === 'ask')
        return { output: failedAs(out, 'permissionDecision "ask" is not supported'), warnings }
      if (out.decision === 'deny' || out.decision === 'block') {
        if (!nonEmpty(out.reason))
          return { output: failedAs(out, `${out.decision} without a reason`), warnings }
        out = { ...out, decision: 'deny' }
      }
      if (out.decision === 'allow' && out.updatedInput === undefined) {
        warnings.push('permissionDecision "allow" without updatedInput has no effect')
        out = without(out, 'decision', 'reason')
      }
      if (out.updatedInput !== undefined && out.decision !== 'allow') {
        warnings.push('updatedInput without permissionDecision "allow" was ignored')
        out = without(out, 'updatedInput')
      }
      if (out.additionalContext !== undefined) {
        warnings.push('additionalContext on PreToolUse was ignored')
        out = without(out, 'additionalContext')
      }
      return { output: out, warnings }
    }
    case 'PostToolUse': {
      if (out.decision === 'block' && !exit2 && !nonEmpty(out.reason)) {
        return { output: failedAs(out, 'block without a reason'), warnings }
      }
      if (out.decision !== undefined && out.decision !== 'block') {
        warnings.push(`decision "${out.decision}" has no effect on PostToolUse`)
        out = without(out, 'decision', 'reason')
      }
      if (out.updatedInput !== undefined) {
        warnings.push('updatedInput on PostToolUse was ignored')
        out = without(out, 'updatedInput')
      }
      return { output: out, warnings }
    }
    case 'UserPromptSubmit': {
      if (out.decision === 'block' && !exit2 && !nonEmpty(out.reason)) {
        return { output: failedAs(out, 'block without a reason'), warnings }
      }
      if (out.decision !== undefined && out.decision !== 'block') {
        warnings.push(`decision "${out.decision}" has no effect on UserPromptSubmit`)
        out = without(out, 'decision', 'reason')
      }
      if (out.updatedInput !== undefined) out = without(out, 'updatedInput')
      return { output: out, warnings }
    }
    case 'SessionStart':
    case 'SubagentStart': {
      // Neither can block; Codex stops nothing on SubagentStart's continue:false, and tack cannot stop a
      // session from a detached SessionStart run (README, What is honoured). Codex counts exit 2 on
      // SubagentStart as an ordinary failure.
      if (point === 'SubagentStart' && exit2)
        return { output: failedAs(out, 'exit 2 cannot block SubagentStart'), warnings }
      if (out.decision !== undefined) {
        warnings.push(`${point} cannot block; decision "${out.decision}" was ignored`)
        out = without(out, 'decision')
      }
      if (out.continue === false) warnings.push(`continue:false on ${point} was ignored`)
      if (out.updatedInput !== undefined) out = without(out, 'updatedInput')
      return { output: out, warnings }
    }
    case 'Stop':
    case 'SubagentStop': {
      // JSON or nothing: plain stdout is invalid Stop and SubagentStop output.
      if (out.exitCode === 0 && !out.json && out.stdout !== '') {
        return { output: failedAs(out, `${point} hooks must print JSON or nothing`), warnings }
      }
      if (out.decision === 'block' && !exit2 && !nonEmpty(out.reason)) {
        return { output: failedAs(out, 'block without a reason'), warnings }
      }
      if (out.decision !== undefined && out.decision !== 'block') {
        warnings.push(`decision "${out.decision}" has no effect on ${point}`)
        out = without(out, 'decision', 'reason')
      }
      if (out.additionalContext !== undefined) {
        warnings.push(`additionalContext on ${point} was ignored`)
        out = without(out, 'additionalContext')
      }
      if (out.updatedInput !== undefined) out = without(out, 'updatedInput')
      return { output: out, warnings }
    }
    case 'PermissionRequest': {
      // Exit 2 is no decision here (protocols.md §B.6); plain stdout is ignored.
      if (exit2) return { output: failedAs(out, 'exit 2 is not a PermissionRequest decision'), warnings: [] }
      const bare = without(out, 'decision', 'reason', 'updatedInput', 'additionalContext', 'unsupported')
      if (!out.json || !out.raw) return { output: bare, warnings: [] }
      const read = readPermissionOutput(out.raw)
      switch (read.kind) {
        case 'failed':
          return { output: failedAs(out, read.why), warnings: [] }
        case 'none':
          return { output: bare, warnings: [] }
        case 'allow':
        case 'deny':
          return {
            output: {
              ...bare,
              decision: read.kind,
              ...(read.kind === 'deny' && read.message !== undefined ? { reason: read.message } : {}),
            },
            warnings: read.ignored.map((k) => `${k} is not supported and was ignored`),
          }
        default:
          return read satisfies never
      }
    }
    case 'PreCompact':
    case 'PostCompact': {
      // Only `continue`, `stopReason`, `systemMessage` and `suppressOutput` (Codex's output schema);
      // exit 2 is an ordinary failure; plain stdout is ignored.
      if (exit2) return { output: failedAs(out, `exit 2 is a failure on ${point}`), warnings: [] }
      const bare = without(out, 'decision', 'reason', 'updatedInput', 'additionalContext', 'unsupported')
      if (!out.json || !out.raw) return { output: bare, warnings: [] }
      const extra = Object.keys(out.raw).filter(
        (k) => !['continue', 'stopReason', 'systemMessage', 'suppressOutput'].includes(k),
      )
      if (extra.length > 0)
        return { output: failedAs(out, `${extra.join(', ')}: not ${point} output fields`), warnings: [] }
      return { output: bare, warnings: [] }
    }
    case 'Interrupt': {
      // Observe only: nothing, or a JSON object with `systemMessage` alone; anything else fails the hook.
      if (exit2) return { output: failedAs(out, 'exit 2 is a failure on Interrupt'), warnings: [] }
      const bare = without(out, 'decision', 'reason', 'updatedInput', 'additionalContext', 'unsupported')
      if (out.stdout === '') return { output: bare, warnings: [] }
      if (!out.json || !out.raw)
        return { output: failedAs(out, 'Interrupt hooks must print JSON or nothing'), warnings: [] }
      const extra = Object.keys(out.raw).filter((k) => k !== 'systemMessage')
      if (extra.length > 0)
        return { output: failedAs(out, `${extra.join(', ')}: not Interrupt output fields`), warnings: [] }
      return { output: bare, warnings: [] }
    }
    default:
      return point satisfies never
  }
}
