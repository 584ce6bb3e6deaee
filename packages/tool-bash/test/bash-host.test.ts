// How an escalated bash call looks to hooks (docs/decisions/0315-leaving-the-sandbox.md): Claude Code's
// `Bash` input carries `dangerouslyDisableSandbox: true`, Codex's `{command}` the justification as
// `description`; an `updatedInput` keeps the escalation only when it says so, and never invents a
// justification.
import { describe, expect, it } from 'vitest'
import { bashHost } from '../src/bash-host.ts'

const escalated = {
  command: 'git commit -m x',
  sandbox_permissions: 'require_escalated',
  justification: '.git is read-only in the sandbox',
}

describe('bash as other hosts see it', () => {
  it('Claude Code: dangerouslyDisableSandbox only on an escalated call', () => {
    expect(bashHost.claude.toInput?.(escalated, '/w')).toEqual({
      command: 'git commit -m x',
      dangerouslyDisableSandbox: true,
    })
    expect(bashHost.claude.toInput?.({ command: 'ls', sandbox_permissions: 'use_default' }, '/w')).toEqual({
      command: 'ls',
    })
  })

  it("Claude Code's updatedInput: the flag maps back to require_escalated, its absence to none", () => {
    expect(
      bashHost.claude.fromInput?.({ command: 'git commit -m y', dangerouslyDisableSandbox: true }),
    ).toEqual({
      command: 'git commit -m y',
      sandbox_permissions: 'require_escalated',
    })
    expect(
      bashHost.claude.fromInput?.({ command: 'git commit -m y', dangerouslyDisableSandbox: false }),
    ).toEqual({
      command: 'git commit -m y',
    })
  })

  it("Codex: {command}, and an escalated call's justification as description", () => {
    expect(bashHost.codex.toInput?.(escalated, { cwd: '/w' } as never)).toEqual({
      command: 'git commit -m x',
      description: '.git is read-only in the sandbox',
    })
    expect(bashHost.codex.toInput?.({ command: 'ls' }, { cwd: '/w' } as never)).toEqual({ command: 'ls' })
  })
})
