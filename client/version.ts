import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The client package's version, read from client/package.json: the CLI's --version and the MCP bridge's serverInfo say it. */
export const CLIENT_VERSION: string = JSON.parse(
  readFileSync(join(import.meta.dirname, 'package.json'), 'utf8'),
).version
