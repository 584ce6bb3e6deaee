// Which IP addresses web_fetch may connect to. A URL the model chose must not reach a service that
// trusts its network position — a database on loopback, a router on the LAN, a cloud metadata
// endpoint on link-local (169.254.169.254) — so those kinds are refused unless the user's config
// allows them. The check runs on the address the socket will actually use (guarded-http.ts), at every
// hop, so neither a redirect nor a DNS answer that changes between look-ups (rebinding) gets around it.
import { BlockList, isIPv4, isIPv6 } from 'node:net'

export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved'

export interface AddressPolicy {
  readonly allowLoopback: boolean
  /** RFC 1918, carrier-grade NAT (100.64/10) and IPv6 unique-local (fc00::/7). */
  readonly allowPrivate: boolean
  /** 169.254/16 and fe80::/10, where cloud metadata services live. */
  readonly allowLinkLocal: boolean
}

export const DENY_NON_PUBLIC: AddressPolicy = Object.freeze({
  allowLoopback: false,
  allowPrivate: false,
  allowLinkLocal: false,
})

/** For URLs from the user's own config (a search provider's endpoint), not from the model. */
export const ALLOW_ALL: AddressPolicy = Object.freeze({
  allowLoopback: true,
  allowPrivate: true,
  allowLinkLocal: true,
})

/** The ranges as one BlockList, written in CIDR notation and grouped by what they are for. */
function list(...groups: ReadonlyArray<readonly string[]>): BlockList {
  const blocks = new BlockList()
  for (const range of groups.flat()) {
    const [net, prefix] = range.split('/')
    blocks.addSubnet(net, Number(prefix), net.includes(':') ? 'ipv6' : 'ipv4')
  }
  return blocks
}

/**
 * Made on the first check, not when the tool is loaded: Node compiles its IP-address patterns on first
 * use, several milliseconds that every start before the first model request would otherwise pay
 * (docs/decisions/0327-work-before-the-first-request.md).
 */
let lists: { loopback: BlockList; private: BlockList; linkLocal: BlockList; reserved: BlockList } | undefined
function ranges(): NonNullable<typeof lists> {
  lists ??= {
    loopback: list(['127.0.0.0/8', '::1/128']),
    private: list(
      ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'], // RFC 1918
      ['100.64.0.0/10'], // carrier-grade NAT
      ['fc00::/7'], // IPv6 unique-local
      ['fec0::/10'], // deprecated IPv6 site-local, still routed inside some networks
    ),
    linkLocal: list(['169.254.0.0/16', 'fe80::/10']),
    // Never a web server anyone means to reach.
    reserved: list(
      ['0.0.0.0/8', '::/128'], // "this host" (0.0.0.0 connects to loopback on Linux), the unspecified address
      ['192.0.0.0/24'], // IETF protocol assignments
      ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32'], // documentation
      ['198.18.0.0/15'], // benchmarking
      ['224.0.0.0/4', 'ff00::/8'], // multicast
      ['240.0.0.0/4'], // reserved, and the broadcast address in it
      ['100::/64'], // IPv6 discard-only
    ),
  }
  return lists
}

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16). */
function embeddedIPv4(address: string): string | undefined {
  const lower = address.toLowerCase()
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
  if (dotted) return dotted[1]
  const groups = expandIPv6(lower)
  if (!groups) return undefined
  const hex = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return hex(groups[6], groups[7])
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0))
    return hex(groups[6], groups[7])
  if (groups[0] === 0x2002) return hex(groups[1], groups[2])
  return undefined
}

/** The eight 16-bit groups of an IPv6 address without a dotted tail, or undefined. */
function expandIPv6(address: string): number[] | undefined {
  if (address.includes('.')) return undefined
  const [head, tail, ...rest] = address.split('::')
  if (rest.length > 0) return undefined
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : [])
  const left = parse(head)
  const right = parse(tail)
  const missing = 8 - left.length - right.length
  if (tail === undefined ? missing !== 0 : missing < 0) return undefined
  const groups = [...left, ...Array<number>(missing).fill(0), ...right]
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined
}

/** The kind of an IP address (without brackets or zone id); non-addresses are `reserved`. */
export function addressKind(raw: string): AddressKind {
  const address = raw.replace(/%.*$/, '')
  if (isIPv6(address)) {
    const v4 = embeddedIPv4(address)
    if (v4 !== undefined) return addressKind(v4)
  } else if (!isIPv4(address)) return 'reserved'
  const type = isIPv4(address) ? 'ipv4' : 'ipv6'
  const { loopback, linkLocal, private: privateNets, reserved } = ranges()
  if (loopback.check(address, type)) return 'loopback'
  if (linkLocal.check(address, type)) return 'link-local'
  if (privateNets.check(address, type)) return 'private'
  if (reserved.check(address, type)) return 'reserved'
  return 'public'
}

/** Why `address` may not be reached under `policy`, or undefined when it may. */
export function refusalOf(address: string, policy: AddressPolicy): string | undefined {
  const kind = addressKind(address)
  switch (kind) {
    case 'public':
      return undefined
    case 'loopback':
      return policy.allowLoopback
        ? undefined
        : `${address} is a loopback address (plugins.web.allowLoopback is off)`
    case 'private':
      return policy.allowPrivate
        ? undefined
        : `${address} is a private-network address (plugins.web.allowPrivateNetworks is off)`
    case 'link-local':
      return policy.allowLinkLocal
        ? undefined
        : `${address} is a link-local address (plugins.web.allowLinkLocal is off)`
    case 'reserved':
      return `${address} is a reserved or unspecified address`
  }
}
