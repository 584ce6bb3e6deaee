// The address kinds web_fetch judges by, including IPv6 spellings that carry an IPv4 address.
import { describe, expect, it } from 'vitest'
import { addressKind, DENY_NON_PUBLIC, refusalOf } from '../src/addresses.ts'

describe('addressKind', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['2002:c0a8:101::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['0.0.0.0', 'reserved'],
    ['::', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['not-an-ip', 'reserved'],
    ['93.184.215.14', 'public'],
    ['172.32.0.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind)
  })

  it('the default policy refuses every kind but public, naming the switch that would allow it', () => {
    expect(refusalOf('93.184.215.14', DENY_NON_PUBLIC)).toBeUndefined()
    expect(refusalOf('127.0.0.1', DENY_NON_PUBLIC)).toMatch(/loopback.*allowLoopback/)
    expect(refusalOf('10.0.0.1', DENY_NON_PUBLIC)).toMatch(/private.*allowPrivateNetworks/)
    expect(refusalOf('169.254.169.254', DENY_NON_PUBLIC)).toMatch(/link-local.*allowLinkLocal/)
    expect(refusalOf('0.0.0.0', { allowLoopback: true, allowPrivate: true, allowLinkLocal: true })).toMatch(
      /reserved/,
    )
  })
})
