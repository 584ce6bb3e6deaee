// `web_fetch`: GET one http(s) URL and return its readable text. Bounded in bytes, time and
// redirects; every hop's address is checked against the config's policy (addresses.ts). HTML becomes
// markdown (or text); other text types come back as they are; binary types are refused by type.
import { defineTool, type ToolCallContext, ToolFailure } from '@tack/tools'
import type { AddressPolicy } from './addresses.ts'
import { webToolHeader } from './tool-header.ts'
import { webFetchHost } from './web-fetch-host.ts'
import type { WebToolsConfig } from './config.ts'
import {
  FetchRefused,
  type FetchResult,
  fetchFollowing,
  parseWebUrl,
  type Resolver,
  systemResolver,
} from './guarded-http.ts'
import type { ReadableFormat } from './readable.ts'
import { webFetchPresentation } from './web-fetch-present.ts'

export interface WebToolOptions {
  /** Replaces DNS (tests play a resolver that answers loopback for a public-looking name). */
  readonly resolver?: Resolver
}

export interface WebFetchMeta {
  readonly url: string
  readonly finalUrl: string
  readonly status: number
  readonly contentType: string
  readonly bytes: number
  readonly bodyTruncated: boolean
  readonly textTruncated: boolean
  readonly redirects: readonly string[]
}

const DESCRIPTION = [
  'Fetches one http or https URL and returns its readable content: for an HTML page the main article',
  'as markdown (format "markdown", the default) or plain text (format "text"), with links made absolute;',
  'other text (JSON, XML, plain text) as it is. Binary content (images, PDF, archives) is not returned.',
  'Redirects are followed a few times. Addresses on this machine and private networks are refused',
  'unless the user allowed them. Use it to read documentation or a page a search found.',
].join(' ')

const PARAMETERS = {
  type: 'object',
  properties: {
    url: { type: 'string', minLength: 1, description: 'The http or https URL to fetch.' },
    format: {
      type: 'string',
      enum: ['markdown', 'text'],
      description: 'How an HTML page is returned (default markdown).',
    },
  },
  required: ['url'],
} as const

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml'])

function isTextual(type: string): boolean {
  return (
    type === '' ||
    type.startsWith('text/') ||
    type === 'application/json' ||
    type === 'application/xml' ||
    type === 'application/javascript' ||
    type.endsWith('+json') ||
    type.endsWith('+xml')
  )
}

function charsetOf(contentType: string): string {
  for (const part of contentType.split(';').slice(1)) {
    const [key, value] = part.split('=')
    if (key?.trim().toLowerCase() === 'charset' && value) return value.trim().replace(/^"|"$/g, '')
  }
  return 'utf-8'
}

function decodeBody(body: Buffer, contentType: string): string {
  try {
    return new TextDecoder(charsetOf(contentType)).decode(body)
  } catch {
    return new TextDecoder('utf-8').decode(body) // an unknown charset label
  }
}

function policyOf(config: WebToolsConfig): AddressPolicy {
  return {
    allowLoopback: config.allowLoopback,
    allowPrivate: config.allowPrivateNetworks,
    allowLinkLocal: config.allowLinkLocal,
  }
}

async function fetchPage(
  config: WebToolsConfig,
  options: WebToolOptions,
  url: URL,
  call: ToolCallContext,
): Promise<FetchResult> {
  const timeout = AbortSignal.timeout(config.timeoutMs)
  try {
    return await fetchFollowing(url, {
      policy: policyOf(config),
      resolver: options.resolver ?? systemResolver,
      maxBytes: config.maxBytes,
      maxRedirects: config.maxRedirects,
      signal: AbortSignal.any([call.signal, timeout]),
      headers: {
        accept: 'text/html, application/xhtml+xml, text/*;q=0.9, application/json;q=0.8, */*;q=0.5',
        'user-agent': config.userAgent,
      },
    })
  } catch (error) {
    if (error instanceof FetchRefused)
      throw new ToolFailure(error.code, error.message, { content: `[not fetched: ${error.message}]` })
    if (timeout.aborted && !call.signal.aborted)
      throw new ToolFailure('TIMEOUT', `timed out after ${config.timeoutMs} ms`, {
        content: `[not fetched: ${url.href} took longer than ${config.timeoutMs} ms (timeoutMs)]`,
      })
    if (call.signal.aborted) throw error
    const reason = (error as Error).message
    throw new ToolFailure('FETCH_FAILED', reason, { content: `[not fetched: ${url.href}: ${reason}]` })
  }
}

export async function runWebFetch(
  config: WebToolsConfig,
  options: WebToolOptions,
  args: { url: string; format?: ReadableFormat },
  call: ToolCallContext,
) {
  let url: URL
  try {
    url = parseWebUrl(args.url)
  } catch (error) {
    const message = (error as Error).message
    throw new ToolFailure((error as FetchRefused).code ?? 'BAD_URL', message, {
      content: `[not fetched: ${message}]`,
    })
  }
  const page = await fetchPage(config, options, url, call)
  const contentType = String(page.headers['content-type'] ?? '')
  const type = contentType.split(';')[0].trim().toLowerCase()
  const head = [`URL: ${page.url.href}`, `Status: ${page.status}`, `Content-Type: ${contentType || '(none)'}`]
  if (page.redirects.length > 0) head.push(`Redirected from: ${page.redirects.join(' -> ')}`)
  let text: string
  if (HTML_TYPES.has(type)) {
    // The HTML libraries load on the first page, not at start-up (every `tack run` loads this plugin).
    const { readableHtml } = await import('./readable.ts')
    const readable = readableHtml(
      decodeBody(page.body, contentType),
      page.url.href,
      args.format ?? 'markdown',
    )
    if (readable.title) head.push(`Title: ${readable.title}`)
    text = readable.content
  } else if (isTextual(type)) {
    text = decodeBody(page.body, contentType)
  } else {
    text = `[binary content (${type}, ${page.body.length} bytes read) is not shown]`
  }
  const textTruncated = text.length > config.maxResultChars
  if (textTruncated) text = text.slice(0, config.maxResultChars)
  const notes: string[] = []
  if (page.truncated) notes.push(`[the response was cut at ${config.maxBytes} bytes (maxBytes)]`)
  if (textTruncated) notes.push(`[the text was cut at ${config.maxResultChars} characters (maxResultChars)]`)
  const content = [head.join('\n'), '', text, ...(notes.length ? ['', ...notes] : [])].join('\n')
  const meta: WebFetchMeta = {
    url: url.href,
    finalUrl: page.url.href,
    status: page.status,
    contentType,
    bytes: page.body.length,
    bodyTruncated: page.truncated,
    textTruncated,
    redirects: page.redirects,
  }
  if (page.status < 200 || page.status > 299)
    throw new ToolFailure('HTTP_ERROR', `HTTP ${page.status}`, { content, meta })
  return { content, meta }
}

export function createWebFetchTool(config: WebToolsConfig, options: WebToolOptions = {}) {
  return defineTool({
    ...webToolHeader(config, 'web_fetch', DESCRIPTION),
    host: webFetchHost,
    parameters: PARAMETERS,
    execute: (args, call) => runWebFetch(config, options, args, call),
    present: webFetchPresentation,
  })
}
