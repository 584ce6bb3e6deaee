// The sandbox command lines as text: bubblewrap's arguments (mount order decides what wins) and the
// seatbelt profile (macOS; generated and checked here, not run — tack's CI has no Mac).
import { describe, expect, it } from 'vitest'
import { bwrapArgs } from '../src/sandbox/bwrap-args.ts'
import type { SandboxPolicy } from '../src/sandbox/policy.ts'
import { sbplString, seatbeltProfile } from '../src/sandbox/seatbelt.ts'

const policy: SandboxPolicy = {
  writable: ['/work/repo', '/tmp'],
  readOnly: ['/work/repo/.tack'],
  hidden: ['/home/u/.tack', '/home/u/.netrc', '/home/u/.aws'],
  revealed: ['/home/u/.tack/scratch'],
  network: true,
}

const existing = new Map<string, 'dir' | 'file'>([
  ['/work/repo', 'dir'],
  ['/tmp', 'dir'],
  ['/work/repo/.tack', 'dir'],
  ['/home/u/.tack', 'dir'],
  ['/home/u/.netrc', 'file'],
  ['/home/u/.tack/scratch', 'dir'],
])

function indexOfPair(args: string[], flag: string, path: string): number {
  return args.findIndex((a, i) => a === flag && args[i + 1] === path)
}

describe('bwrapArgs', () => {
  const args = bwrapArgs(policy, { cwd: '/work/repo', existing, disableUserns: true })

  it('9.3 new namespaces, no capabilities, no nested user namespaces, a fresh /proc', () => {
    expect(args.slice(0, 2)).toEqual(['--unshare-all', '--unshare-user'])
    expect(args).toContain('--disable-userns')
    expect(args.join(' ')).toContain('--cap-drop ALL')
    expect(args.join(' ')).toContain('--proc /proc')
    expect(args).not.toContain('--new-session')
  })

  it("9.3 the sandbox dies with tack (--die-with-parent; the runner spares bwrap the grace's SIGTERM)", () => {
    expect(args).toContain('--die-with-parent')
  })

  it('9.3 pinned folders are bound onto themselves among the writable binds, outer folders first', () => {
    const pinned = bwrapArgs(
      { ...policy, writable: ['/tmp/a/b/ws', '/tmp'], readOnly: ['/tmp/a/b/ws/.git'] },
      {
        cwd: '/tmp/a/b/ws',
        existing: new Map([
          ['/tmp/a/b/ws', 'dir'],
          ['/tmp', 'dir'],
          ['/tmp/a/b/ws/.git', 'dir'],
        ]),
        pinned: ['/tmp/a/b', '/tmp/a'],
        disableUserns: true,
      },
    )
    const order = ['/tmp', '/tmp/a', '/tmp/a/b', '/tmp/a/b/ws'].map((p) => indexOfPair(pinned, '--bind', p))
    expect(order.every((i) => i > 0)).toBe(true)
    expect(order).toEqual(order.toSorted((a, b) => a - b))
    expect(indexOfPair(pinned, '--ro-bind', '/tmp/a/b/ws/.git')).toBeGreaterThan(order[3])
  })

  it('9.3 network on shares the host network; off keeps only a private loopback', () => {
    expect(args).toContain('--share-net')
    const denied = bwrapArgs({ ...policy, network: false }, { cwd: '/', existing, disableUserns: false })
    expect(denied).not.toContain('--share-net')
    expect(denied).not.toContain('--disable-userns')
  })

  it('9.3 read-only root, then writable binds, then read-only control paths, then hidden paths last', () => {
    const root = indexOfPair(args, '--ro-bind', '/')
    const work = indexOfPair(args, '--bind', '/work/repo')
    const control = indexOfPair(args, '--ro-bind', '/work/repo/.tack')
    const home = indexOfPair(args, '--tmpfs', '/home/u/.tack')
    const scratch = indexOfPair(args, '--ro-bind', '/home/u/.tack/scratch')
    const remount = indexOfPair(args, '--remount-ro', '/home/u/.tack')
    expect(root).toBeGreaterThanOrEqual(0)
    expect([root, work, control, home, scratch, remount]).toEqual(
      [root, work, control, home, scratch, remount].toSorted((a, b) => a - b),
    )
    expect(new Set([root, work, control, home, scratch, remount]).size).toBe(6)
  })

  it('9.3 a hidden file is covered by /dev/null; a missing path is left out', () => {
    expect(indexOfPair(args, '--dev-bind', '/dev/null')).toBeGreaterThan(0)
    expect(args[indexOfPair(args, '--dev-bind', '/dev/null') + 2]).toBe('/home/u/.netrc')
    expect(args).not.toContain('/home/u/.aws')
    expect(args.slice(-2)).toEqual(['--chdir', '/work/repo'])
  })
})

describe('seatbeltProfile', () => {
  const profile = seatbeltProfile(policy)

  it('9.3 denies writes everywhere, then allows the writable folders', () => {
    const lines = profile.split('\n')
    expect(lines.slice(0, 3)).toEqual(['(version 1)', '(allow default)', '(deny file-write*)'])
    expect(profile).toContain('(allow file-write*\n  (subpath "/work/repo")\n  (subpath "/tmp")')
  })

  it('9.3 control paths are denied for writing after the writable folders are allowed', () => {
    expect(profile.indexOf('(deny file-write*\n  (subpath "/work/repo/.tack"))')).toBeGreaterThan(
      profile.indexOf('(allow file-write*'),
    )
  })

  it('9.3 hidden paths are denied for reading, revealed ones allowed again after them', () => {
    const hidden = profile.indexOf('(deny file-read* file-write*\n  (subpath "/home/u/.tack")')
    expect(hidden).toBeGreaterThan(0)
    expect(profile).toContain('(subpath "/home/u/.netrc")')
    expect(profile.indexOf('(allow file-read*\n  (subpath "/home/u/.tack/scratch"))')).toBeGreaterThan(hidden)
  })

  it('9.3 other processes cannot be inspected; the network is denied only when the policy says so', () => {
    expect(profile).toContain('(deny process-info* (target others))')
    expect(profile).not.toContain('(deny network*)')
    expect(seatbeltProfile({ ...policy, network: false })).toContain('(deny network*)')
  })

  it('9.3 quotes and backslashes in paths cannot break out of the string', () => {
    expect(sbplString('/a "b"\\c')).toBe('"/a \\"b\\"\\\\c"')
    const odd = seatbeltProfile({ ...policy, hidden: ['/x") (allow default) ("'] })
    expect(odd).toContain('(subpath "/x\\") (allow default) (\\"")')
  })
})
