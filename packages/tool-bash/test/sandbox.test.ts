// Issue 9.3 at the tool: which permission modes run bash in the sandbox, what the sandbox lets a
// command do, each sandbox Config field (default, configured, rejected), the warning when no sandbox
// exists, and the removal of endpoint key variables. Real bwrap (`.ci/run` installs it), real files.
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { AgentOptions } from '@tack/agent'
import { ConfigError, type ConfigInput } from '@tack/kernel'
import { tempDirOutsideTmp } from '@tack/process/testing'
import { registerTool, type ToolCallRequest } from '@tack/tools'
import { createToolsContext, stubAgent } from '@tack/tools/testing'
import { memorySession } from '@tack/session/testing'
import { describe, expect, it } from 'vitest'
import { createBashTool } from '../src/bash-tool.ts'
import { BashToolConfig } from '../src/config.ts'
import { CONTROL_PATHS, expandHome, sandboxPolicy } from '../src/sandbox-policy.ts'
import { bashCall, bashContext, tempDir, textOf } from './helpers.ts'

function agentCall(
  command: string,
  cwd: string,
  mode: string | undefined,
  sessionId?: string,
): ToolCallRequest {
  const session = memorySession(cwd, sessionId)
  const options: AgentOptions = mode === undefined ? {} : { permissionMode: mode }
  return { ...bashCall({ command }, cwd), agent: stubAgent(session, { cwd, options }) }
}

async function run(config: ConfigInput<typeof BashToolConfig>, call: ToolCallRequest) {
  const ctx = await bashContext({ sandbox: 'on', ...config })
  return ctx.tools.execute(call)
}

describe('which modes are sandboxed', () => {
  it('9.3 workspace-write: the workspace is writable, a folder outside it is not', async () => {
    const [work, outside] = [await tempDir(), await tempDirOutsideTmp()]
    const result = await run({}, agentCall(`touch in && touch ${outside}/out`, work, 'workspace-write'))
    expect(existsSync(join(work, 'in'))).toBe(true)
    expect(existsSync(join(outside, 'out'))).toBe(false)
    expect(result).toMatchObject({ isError: true, error: { code: 'COMMAND_FAILED' } })
    expect(textOf(result)).toContain('Read-only file system')
  })

  it('9.3 read-only: not even the workspace is writable; temp is', async () => {
    const work = await tempDirOutsideTmp()
    const result = await run({}, agentCall('mktemp >/dev/null && echo temp-ok; touch in', work, 'read-only'))
    expect(textOf(result)).toContain('temp-ok')
    expect(existsSync(join(work, 'in'))).toBe(false)
  })

  it('9.3 ask and yolo run unconfined (every ask-mode call is approved by a person)', async () => {
    for (const mode of ['ask', 'yolo']) {
      const outside = await tempDirOutsideTmp()
      await run({}, agentCall(`touch ${outside}/out`, await tempDir(), mode))
      expect(existsSync(join(outside, 'out'))).toBe(true)
    }
  })

  it('9.3 a call without an agent mode is sandboxed as workspace-write (the safe side)', async () => {
    const outside = await tempDirOutsideTmp()
    await run({}, agentCall(`touch ${outside}/out`, await tempDir(), undefined))
    expect(existsSync(join(outside, 'out'))).toBe(false)
  })

  it('9.3 the control files in the workspace are read-only: a hook cannot be planted', async () => {
    const work = await tempDir()
    await mkdir(join(work, '.codex'))
    const command = [
      'mkdir -p .claude/hooks; echo "{}" > .claude/settings.json',
      'echo "{}" > .codex/hooks.json',
      'mkdir -p .tack && echo "baseUrl: http://evil/v1" > .tack/config.yml',
      'echo ok > normal.txt',
    ].join('; ')
    await run({}, agentCall(command, work, 'workspace-write'))
    expect(existsSync(join(work, 'normal.txt'))).toBe(true)
    expect(existsSync(join(work, '.claude'))).toBe(false)
    expect(existsSync(join(work, '.codex', 'hooks.json'))).toBe(false)
    expect(existsSync(join(work, '.tack'))).toBe(false)
    expect(CONTROL_PATHS).toEqual(['.tack', '.claude', '.codex', '.git'])
  })
})

describe('sandbox config fields', () => {
  it('9.3 sandbox: off runs unconfined even in workspace-write', async () => {
    const outside = await tempDirOutsideTmp()
    await run({ sandbox: 'off' }, agentCall(`touch ${outside}/out`, await tempDir(), 'workspace-write'))
    expect(existsSync(join(outside, 'out'))).toBe(true)
  })

  it('9.3 sandbox: on without a sandbox fails the call and runs nothing', async () => {
    const work = await tempDir()
    const ctx = await createToolsContext()
    const config = BashToolConfig.parse({ sandbox: 'on' })
    registerTool(
      ctx,
      createBashTool(config, { detect: async () => ({ kind: 'none', reason: 'no bwrap here' }) }),
    )
    const result = await ctx.tools.execute(agentCall('touch ran', work, 'workspace-write'))
    expect(result).toMatchObject({ isError: true, error: { code: 'SANDBOX_UNAVAILABLE' } })
    expect(textOf(result)).toContain('no bwrap here')
    expect(existsSync(join(work, 'ran'))).toBe(false)
  })

  it('9.3 sandbox: auto without a sandbox runs unconfined and warns once per session', async () => {
    const warnings: string[] = []
    const ctx = await createToolsContext()
    registerTool(
      ctx,
      createBashTool(BashToolConfig.parse({}), {
        detect: async () => ({ kind: 'none', reason: 'bubblewrap (bwrap) is not installed' }),
        warn: (message) => warnings.push(message),
      }),
    )
    const outside = await tempDirOutsideTmp()
    const work = await tempDir()
    await ctx.tools.execute(agentCall(`touch ${outside}/a`, work, 'workspace-write', 'session-a'))
    await ctx.tools.execute(agentCall('true', work, 'workspace-write', 'session-a'))
    await ctx.tools.execute(agentCall('true', work, 'workspace-write', 'session-b'))
    expect(existsSync(join(outside, 'a'))).toBe(true)
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toMatch(
      /^tack: warning: bash runs WITHOUT a sandbox in workspace-write mode: bubblewrap/,
    )
  })

  it('9.3 sandboxNetwork: deny cuts the host network; allow (default) keeps it', async () => {
    const server = createServer((_q, res) => res.end('reachable\n'))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const { port } = server.address() as AddressInfo
    const command = `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && tail -1 <&3`
    try {
      const allowed = await run({}, agentCall(command, await tempDir(), 'workspace-write'))
      const denied = await run(
        { sandboxNetwork: 'deny' },
        agentCall(command, await tempDir(), 'workspace-write'),
      )
      expect(textOf(allowed)).toContain('reachable')
      expect(textOf(denied)).not.toContain('reachable')
    } finally {
      server.close()
    }
  })

  it('9.3 sandboxWritable adds a writable folder in workspace-write, not in read-only', async () => {
    const extra = await tempDirOutsideTmp()
    await run({ sandboxWritable: [extra] }, agentCall(`touch ${extra}/w`, await tempDir(), 'workspace-write'))
    await run({ sandboxWritable: [extra] }, agentCall(`touch ${extra}/r`, await tempDir(), 'read-only'))
    expect(existsSync(join(extra, 'w'))).toBe(true)
    expect(existsSync(join(extra, 'r'))).toBe(false)
  })

  it('9.3 sandboxDenyRead replaces the list; sandboxExtraDenyRead adds to it', async () => {
    const dir = await tempDirOutsideTmp()
    await writeFile(join(dir, 'a.key'), 'secret-a\n')
    await writeFile(join(dir, 'b.key'), 'secret-b\n')
    const command = `cat ${dir}/a.key ${dir}/b.key`
    const call = () => agentCall(command, dir, 'workspace-write')
    const replaced = await run({ sandboxDenyRead: [join(dir, 'a.key')] }, call())
    const added = await run({ sandboxExtraDenyRead: [join(dir, 'b.key')] }, call())
    expect(textOf(replaced)).toBe('secret-b')
    expect(textOf(added)).toBe('secret-a')
  })

  it('9.3 tackHome is hidden (its .env unreadable) while the spill folder inside it stays readable', async () => {
    const home = await tempDir()
    const scratchRoot = join(home, 'scratch')
    await mkdir(scratchRoot)
    await writeFile(join(home, '.env'), 'DEEPSEEK_API_KEY=sk-canary-0123456789\n')
    await writeFile(join(scratchRoot, 'old.log'), 'earlier output\n')
    const command = `cat ${home}/.env; cat ${scratchRoot}/old.log`
    const result = await run(
      { tackHome: home, scratchRoot },
      agentCall(command, await tempDir(), 'workspace-write'),
    )
    expect(textOf(result)).not.toContain('sk-canary')
    expect(textOf(result)).toContain('earlier output')
  })

  it('9.3 envDeny removes a key variable whatever its name, even when envAllow lists it', async () => {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', MYBOX_PASS: 'gpu-box-secret', KEEP: 'kept' }
    const ctx = await bashContext({ env, envAllow: ['MYBOX_PASS'], envDeny: ['MYBOX_PASS'] })
    const result = await ctx.tools.execute(
      bashCall({ command: 'echo "[$MYBOX_PASS] $KEEP"' }, await tempDir()),
    )
    expect(textOf(result)).toBe('[] kept')
  })

  it('9.3 the sandbox fields reject bad values, naming the key and the allowed range', () => {
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ sandbox: 'maybe' }, /sandbox: must be one of 'auto', 'on', 'off'/],
      [{ sandboxNetwork: true }, /sandboxNetwork: must be one of 'allow', 'deny'/],
      [
        { sandboxWritable: ['relative/dir'] },
        /sandboxWritable: must be a list of absolute paths or paths starting with ~\//,
      ],
      [{ sandboxDenyRead: '~/.ssh' }, /sandboxDenyRead: must be a list of absolute paths/],
      [{ sandboxExtraDenyRead: [3] }, /sandboxExtraDenyRead/],
      [{ tackHome: 'rel' }, /tackHome: must be an absolute path/],
      [{ envDeny: 'X' }, /envDeny: must be a list of strings/],
    ]
    for (const [config, message] of bad) {
      expect(() => BashToolConfig.parse(config, 'config.yml')).toThrow(ConfigError)
      expect(() => BashToolConfig.parse(config, 'config.yml')).toThrow(message)
    }
  })
})

describe('sandboxPolicy', () => {
  const config = BashToolConfig.parse({ tackHome: '/home/u/.tack', scratchRoot: '/home/u/.tack/scratch' })

  it('9.3 ~/ paths expand to the home folder', () => {
    expect(expandHome('~/.ssh', '/home/u')).toBe('/home/u/.ssh')
    expect(expandHome('/etc/x', '/home/u')).toBe('/etc/x')
  })

  it('a path inside another hidden one is hidden with it, not twice (a declared store file under tackHome)', () => {
    const withStore = { ...config, sandboxExtraDenyRead: ['/home/u/.tack/sessions.db', '/data/sessions.db'] }
    const hidden = sandboxPolicy('workspace-write', '/work', withStore).hidden
    expect(hidden).toContain('/home/u/.tack')
    expect(hidden).toContain('/data/sessions.db')
    expect(hidden).not.toContain('/home/u/.tack/sessions.db')
  })

  it('9.3 a hidden folder that holds the workspace is left readable, or the workspace would vanish', () => {
    const policy = sandboxPolicy('workspace-write', '/home/u/.tack/work', config)
    expect(policy.hidden).not.toContain('/home/u/.tack')
    expect(sandboxPolicy('workspace-write', '/work', config).hidden).toContain('/home/u/.tack')
  })

  it('9.3 read-only mode protects nothing inside the workspace, since none of it is writable', () => {
    const policy = sandboxPolicy('read-only', '/work', config)
    expect(policy.readOnly).toEqual([])
    expect(policy.writable).not.toContain('/work')
    expect(policy.revealed).toEqual(['/home/u/.tack/scratch'])
  })
})
