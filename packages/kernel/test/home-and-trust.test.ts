// 8.3 one TACK_HOME resolver (docs/decisions/0015-tack-home.md) and 9.1 one workspace trust store (docs/decisions/0013-workspace-trust.md).
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  isWorkspaceTrusted,
  LEGACY_CLAUDE_TRUST_FILE,
  listTrustedWorkspaces,
  dataDirOf,
  resolveTackHome,
  revokeWorkspaceTrust,
  trustedRootOf,
  trustWorkspace,
  WORKSPACE_TRUST_FILE,
} from '../src/index.ts'

const temp = () => realpathSync(mkdtempSync(join(tmpdir(), 'tack-kernel-')))

describe('resolveTackHome', () => {
  it('defaults to <home>/.tack, from env.HOME, else the OS home', () => {
    expect(resolveTackHome({ HOME: '/h' })).toBe('/h/.tack')
    expect(resolveTackHome({})).toBe(join(homedir(), '.tack'))
    expect(resolveTackHome({ HOME: '/h' }, { userHome: '/u' })).toBe('/u/.tack')
  })
  it('takes an absolute TACK_HOME as is, resolves a relative one against the cwd, treats blank as unset', () => {
    expect(resolveTackHome({ HOME: '/h', TACK_HOME: '/opt/tack' })).toBe('/opt/tack')
    expect(resolveTackHome({ HOME: '/h', TACK_HOME: 'rel/t' }, { cwd: '/w' })).toBe('/w/rel/t')
    expect(resolveTackHome({ HOME: '/h', TACK_HOME: '../t' }, { cwd: '/w/x' })).toBe('/w/t')
    expect(resolveTackHome({ HOME: '/h', TACK_HOME: 'rel' })).toBe(join(process.cwd(), 'rel'))
    expect(resolveTackHome({ HOME: '/h', TACK_HOME: '' })).toBe('/h/.tack')
    expect(resolveTackHome({ HOME: '/h', TACK_HOME: '  ' })).toBe('/h/.tack')
  })
})

describe('dataDirOf (the store, the hook bridges and the mod host)', () => {
  it("is a plugin's dataDir when one is set, a relative one against the cwd", () => {
    expect(dataDirOf('/srv/data', { TACK_HOME: '/opt/tack' })).toBe('/srv/data')
    expect(dataDirOf('data', { TACK_HOME: '/opt/tack' }, { cwd: '/w' })).toBe('/w/data')
  })
  it("is tack's home when none is set or it is blank, with the same rules as resolveTackHome", () => {
    expect(dataDirOf(undefined, { HOME: '/h' })).toBe('/h/.tack')
    expect(dataDirOf('  ', { HOME: '/h', TACK_HOME: '/opt/tack' })).toBe('/opt/tack')
    expect(dataDirOf(undefined, { TACK_HOME: 'rel' }, { cwd: '/w' })).toBe('/w/rel')
    expect(dataDirOf(undefined, {}, { userHome: '/home/u' })).toBe('/home/u/.tack')
  })
})

describe('workspace trust store', () => {
  it('records the real path once, 0600 in a 0700 home; a subfolder is covered; revoke removes it', () => {
    const home = join(temp(), 'tack-home')
    const ws = temp()
    mkdirSync(join(ws, 'pkg'))
    symlinkSync(ws, join(temp(), 'link'))
    expect(isWorkspaceTrusted(ws, home)).toBe(false)
    expect(trustWorkspace(ws, home, new Date('2026-01-02T03:04:05Z'))).toEqual({ path: ws, already: false })
    expect(trustWorkspace(ws, home)).toEqual({ path: ws, already: true })
    expect(statSync(home).mode & 0o777).toBe(0o700)
    expect(statSync(join(home, WORKSPACE_TRUST_FILE)).mode & 0o777).toBe(0o600)
    const file = JSON.parse(readFileSync(join(home, WORKSPACE_TRUST_FILE), 'utf8'))
    expect(file).toEqual({ version: 1, workspaces: { [ws]: { trustedAt: '2026-01-02T03:04:05.000Z' } } })
    expect(isWorkspaceTrusted(join(ws, 'pkg'), home)).toBe(true)
    expect(trustedRootOf(join(ws, 'pkg'), home)).toBe(ws)
    expect(listTrustedWorkspaces(home)).toEqual([{ path: ws, trustedAt: '2026-01-02T03:04:05.000Z' }])
    expect(revokeWorkspaceTrust(join(ws, 'pkg'), home)).toBe(false)
    expect(revokeWorkspaceTrust(ws, home)).toBe(true)
    expect(isWorkspaceTrusted(ws, home)).toBe(false)
  })

  it('a symlinked path is trusted under its real path', () => {
    const home = temp()
    const ws = temp()
    const link = join(temp(), 'link')
    symlinkSync(ws, link)
    trustWorkspace(link, home)
    expect(isWorkspaceTrusted(ws, home)).toBe(true)
    expect(listTrustedWorkspaces(home).map((w) => w.path)).toEqual([ws])
  })

  it("the Claude bridge's earlier store still counts, and revoke cleans it; a corrupt store trusts nothing", () => {
    const home = temp()
    const ws = temp()
    writeFileSync(
      join(home, LEGACY_CLAUDE_TRUST_FILE),
      JSON.stringify({ version: 1, projects: { [ws]: { trustedAt: 'then' } } }),
    )
    expect(isWorkspaceTrusted(ws, home)).toBe(true)
    expect(revokeWorkspaceTrust(ws, home)).toBe(true)
    expect(isWorkspaceTrusted(ws, home)).toBe(false)
    writeFileSync(join(home, WORKSPACE_TRUST_FILE), 'not json')
    expect(isWorkspaceTrusted(ws, home)).toBe(false)
    trustWorkspace(ws, home)
    expect(isWorkspaceTrusted(ws, home)).toBe(true)
  })
})
