// The listener signature of one seam declared in `interface Events`, as `docs/seams.md` prints it. A seam
// is declared one of two ways: a method (`'agent/created'(agent: Agent): void`, emit, serial and parallel
// seams) or a property typed with `@tack/kernel`'s `Waterfall<Args, R, NextArgs?, NextR?>` (every
// waterfall seam). The catalog prints both expanded, so a reader sees the `next` a waterfall listener
// gets without looking the helper type up: `(agent: Agent, next: () => Promise<R>) => R | Promise<R>`.
import ts from 'typescript'

/** The printed signature, and whether the declaration is a `Waterfall<…>`. */
export type SeamSignature =
  | { readonly ok: true; readonly signature: string; readonly waterfall: boolean }
  | { readonly ok: false; readonly problem: string }

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** `label: Type` (or `label?: Type`) for each member of a labelled tuple; undefined when one is unlabelled. */
function tupleParameters(node: ts.TypeNode, source: ts.SourceFile): string[] | undefined {
  if (!ts.isTupleTypeNode(node)) return undefined
  const params: string[] = []
  for (const element of node.elements) {
    if (!ts.isNamedTupleMember(element)) return undefined
    params.push(oneLine(element.getText(source)))
  }
  return params
}

function waterfallSignature(ref: ts.TypeReferenceNode, source: ts.SourceFile, seam: string): SeamSignature {
  const [args, result, nextArgs, nextResult] = ref.typeArguments ?? []
  if (!args || !result)
    return { ok: false, problem: `seam ${seam}: Waterfall needs its arguments and result` }
  const params = tupleParameters(args, source)
  const nextParams = nextArgs ? tupleParameters(nextArgs, source) : []
  if (!params || !nextParams) {
    return {
      ok: false,
      problem: `seam ${seam}: label every Waterfall argument (\`[agent: Agent]\`, not \`[Agent]\`)`,
    }
  }
  const r = oneLine(result.getText(source))
  const nextR = nextResult ? oneLine(nextResult.getText(source)) : r
  const next = `next: (${nextParams.join(', ')}) => Promise<${nextR}>`
  return { ok: true, signature: `(${[...params, next].join(', ')}) => ${r} | Promise<${r}>`, waterfall: true }
}

/** The signature of `member`, or why it cannot be read; undefined for members that are not seams. */
export function seamSignature(
  member: ts.TypeElement,
  source: ts.SourceFile,
  seam: string,
): SeamSignature | undefined {
  if (ts.isMethodSignature(member)) {
    const params = member.parameters.map((p) => oneLine(p.getText(source))).join(', ')
    const ret = member.type ? oneLine(member.type.getText(source)) : 'void'
    return { ok: true, signature: `(${params}) => ${ret}`, waterfall: false }
  }
  if (!ts.isPropertySignature(member)) return undefined
  const type = member.type
  if (type && ts.isTypeReferenceNode(type) && oneLine(type.typeName.getText(source)) === 'Waterfall') {
    return waterfallSignature(type, source, seam)
  }
  if (type && ts.isFunctionTypeNode(type)) {
    return { ok: true, signature: oneLine(type.getText(source)), waterfall: false }
  }
  return {
    ok: false,
    problem: `seam ${seam}: declare it as a method or as a \`Waterfall<…>\` property, not \`${oneLine(type?.getText(source) ?? 'untyped')}\``,
  }
}
