import Ajv2020 from 'ajv/dist/2020.js'

/**
 * Validates answers against the service's own published /openapi.json: one validator, reading the
 * schemas exactly as clients see them.
 */
export async function openApiValidator(app: { handle(request: Request): Promise<Response> }) {
  const document = (await (await app.handle(new Request('http://localhost/openapi.json'))).json()) as {
    paths: Record<
      string,
      Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
    >
  }
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  ajv.addFormat('solana-address', true)
  return (method: string, path: string, status: number, body: unknown): string[] => {
    const schema =
      document.paths[path]?.[method.toLowerCase()]?.responses[String(status)]?.content?.['application/json']?.schema
    if (!schema) return [`no published schema for ${method} ${path} ${status}`]
    const validate = ajv.compile(schema)
    return validate(body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`)
  }
}
