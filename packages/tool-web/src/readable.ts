// HTML → the readable part of a page, as markdown or plain text. The page is parsed by a real HTML
// parser (linkedom), Mozilla's Readability (Firefox's reader view) picks the article, and Turndown
// writes it as markdown; a page Readability finds no article in is converted whole, less scripts,
// styles and chrome. Links and images are made absolute against the page's final URL first, since
// a relative link is useless to a model that only sees the text.
import { Readability } from '@mozilla/readability'
import { parseHTML } from 'linkedom'
import TurndownService from 'turndown'

export type ReadableFormat = 'markdown' | 'text'

export interface ReadablePage {
  readonly title?: string
  readonly content: string
}

const NOISE = 'script, style, noscript, template, svg, iframe, object, embed, head, link, meta'
const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BR',
  'DD',
  'DIV',
  'DL',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TR',
  'UL',
])

type Doc = ReturnType<typeof parseHTML>['document']
// linkedom's node types are its own; Turndown and Readability want the DOM's. They are structurally
// what both libraries use (the point of linkedom), so the crossing is one cast, here.
type DomNode = Parameters<TurndownService['turndown']>[0]
type ReadabilityDocument = ConstructorParameters<typeof Readability>[0]

function absolutize(document: Doc, base: string): void {
  for (const [selector, attribute] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute)
      if (value === null) continue
      try {
        element.setAttribute(attribute, new URL(value, base).href)
      } catch {
        element.removeAttribute(attribute)
      }
    }
  }
}

function turndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
  })
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'form', 'button'] as never)
  return service
}

/** Text of a DOM subtree with a line break around every block element. */
function blockText(node: {
  nodeType: number
  nodeName: string
  textContent: string | null
  childNodes: ArrayLike<unknown>
}): string {
  if (node.nodeType === 3) return node.textContent ?? ''
  if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return ''
  let out = ''
  for (const child of Array.from(node.childNodes)) out += blockText(child as typeof node)
  return BLOCKS.has(node.nodeName.toUpperCase()) ? `\n${out}\n` : out
}

function tidyText(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/** The readable content of an HTML page at `url`. */
export function readableHtml(html: string, url: string, format: ReadableFormat): ReadablePage {
  const { document } = parseHTML(html)
  absolutize(document, url)
  const pageTitle = document.querySelector('title')?.textContent?.trim() || undefined
  // Readability mutates the document it reads, so it gets a copy; the whole page stays as the fallback.
  const article = new Readability(
    parseHTML(document.toString()).document as unknown as ReadabilityDocument,
  ).parse()
  let root: DomNode
  let title = pageTitle
  if (article?.content && (article.textContent ?? '').trim().length > 0) {
    root = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`).document
      .body as unknown as DomNode
    title = article.title?.trim() || pageTitle
  } else {
    for (const element of document.querySelectorAll(NOISE)) element.remove()
    root = (document.body ?? document.documentElement) as unknown as DomNode
  }
  const content =
    format === 'markdown'
      ? turndown().turndown(root).trim()
      : tidyText(blockText(root as unknown as Parameters<typeof blockText>[0]))
  return title ? { title, content } : { content }
}
