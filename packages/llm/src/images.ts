// Which models take image input (docs/decisions/0255-image-content.md): the endpoint's `images` setting
// when the user gave one, else the model catalogue's answer, else the default of the endpoint's kind —
// every Claude model since Claude 3 takes images, while DeepSeek's chat models take none and an
// OpenAI(-compatible) model nobody vouched for is treated as text-only (a note costs little; an image
// a text model rejects costs the request).
import { catalogEntry } from './catalog.ts'
import type { EndpointConfig, ProviderKind } from './endpoints.ts'
import { knownProviders, type ResolveConfig, splitModel } from './resolve.ts'

const KIND_DEFAULT: Readonly<Record<ProviderKind, boolean>> = {
  anthropic: true,
  deepseek: false,
  openai: false,
  'openai-compatible': false,
}

/** Whether `modelId` served by `endpoint` takes images. */
export function acceptsImages(endpoint: EndpointConfig, modelId: string): boolean {
  const { images } = endpoint
  if (typeof images === 'boolean') return images
  if (images) return images.includes(modelId)
  return catalogEntry(modelId)?.images ?? KIND_DEFAULT[endpoint.kind]
}

/**
 * Whether `model` (`provider/model`) takes images under `config`; undefined for a model no endpoint of
 * it serves. The `scripted` provider takes them: it records what it is sent (scripted.ts).
 */
export function modelTakesImages(config: ResolveConfig, model: string): boolean | undefined {
  const parts = splitModel(model)
  if (!parts) return undefined
  if (parts.provider === 'scripted' && config.scripted) return true
  const endpoint = knownProviders(config)[parts.provider]
  return endpoint ? acceptsImages(endpoint, parts.modelId) : undefined
}
