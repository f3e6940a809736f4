import { CATALOGUE_STYLE, catalogueSections } from './catalogue-page.ts'

/** What the page's script needs from the service, embedded in the page as JSON. */
export interface PageConfig {
  demoWallet: { address: string; network: string } | null
  /** The payment rails the operator configured: the page offers wallets of those chains only. */
  rails: ('base' | 'solana')[]
  solanaRpcUrl: string | null
  /** The networks (CAIP-2) the service takes payment on: a wallet signs in to a watch on one of them. */
  networks: string[]
  /**
   * Each mounted priced route's price in USD by `METHOD path`, from the manifests (written nowhere else):
   * `0.02`, or for a price per unit `0.015 per mint`.
   */
  prices: Record<string, string>
}

/**
 * The statement of the page's sign-in to a watch it paid for (GET and DELETE /watch/:id): the demo
 * wallet signs in for a watch's pages with this statement only (plugins/web/demo-wallet.ts).
 */
export const WATCH_SIGN_IN_STATEMENT = 'Sign in to follow or stop a watch this wallet paid for'

/** A button's label with the route's price, as the manifests publish it (no price: the label alone). */
export function priced(label: string, prices: PageConfig['prices'], route: string): string {
  const usd = prices[route]
  if (usd === undefined) return label
  // `0.015 per mint` reads `0.015 USD per mint`.
  const [amount, ...per] = usd.split(' ')
  return `${label} · ${[amount, 'USD', ...per].join(' ')}`
}

/** The page at `/`: a form, a wallet picker, the results; styled inline, its script served by the service. */
export function renderPage(config: PageConfig): string {
  // `<` escaped: the JSON sits inside a <script> element.
  const json = JSON.stringify(config).replaceAll('<', '\\u003c')
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>solsentry — is this Solana token safe?</title>
  <link rel="icon" href="/favicon.ico" type="image/svg+xml" />
  <style>${STYLE}${CATALOGUE_STYLE}</style>
</head>
<body>
  <main>
    <h1>solsentry</h1>
    <p class="lead">Is this Solana token safe, and what is its market doing? Paste its mint address.
      Each answer costs a few cents in USDC, paid from your wallet (x402); a call that fails is not charged.</p>
    <form id="scan-form" autocomplete="off">
      <label for="mint">Token mint address</label>
      <div class="line">
        <input id="mint" name="mint" placeholder="e.g. DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263" spellcheck="false"
          autocapitalize="off" aria-describedby="mint-hint" required />
        <button type="submit" id="scan">${priced('Quick scan', config.prices, 'POST /scan/quick')}</button>
      </div>
      <p id="mint-hint" class="hint">The token's mint address (base58, 32 to 44 characters), not its ticker.</p>
      <label for="wallet">Pay with</label>
      <select id="wallet"></select>
    </form>
    ${catalogueSections((label, route) => priced(label, config.prices, route))}
    <p id="status" role="status" aria-live="polite"></p>
    <div id="results"></div>
    <footer>Agents: <a href="/llms.txt">llms.txt</a> · <a href="/skill.md">skill</a> · MCP at <code>/mcp</code> ·
      <a href="/docs">API reference</a> · <a href="/openapi.json">OpenAPI</a></footer>
  </main>
  <script type="application/json" id="config">${json}</script>
  <script type="module" src="/assets/app.js"></script>
</body>
</html>
`
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #5b6570; --bg: #f6f7f9; --card: #fff; --line: #dde1e6;
  --good: #1a7f37; --warn: #9a6700; --bad: #cf222e; --accent: #5b3fd1;
  /* The tones as text: the badges' backgrounds in light, lighter on dark (4.5:1 either way). */
  --good-text: var(--good); --warn-text: var(--warn); --bad-text: var(--bad); }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8eb; --muted: #9aa4ae; --bg: #0f1216; --card: #171b21; --line: #2a3038;
  --good-text: #4ac26b; --warn-text: #d29922; --bad-text: #ff7b72; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 52rem; margin: 0 auto; padding: 2rem 1rem 4rem; }
h1 { margin: 0 0 .25rem; font-size: 1.8rem; }
.lead { color: var(--muted); margin-top: 0; }
form { display: grid; gap: .4rem; margin: 1.5rem 0 1rem; }
label { font-weight: 600; font-size: .9rem; }
.line { display: flex; flex-wrap: wrap; gap: .5rem; }
input, select, button { font: inherit; padding: .55rem .7rem; border-radius: .5rem; border: 1px solid var(--line); background: var(--card); color: var(--fg); }
input { flex: 1 1 16rem; min-width: 0; font-family: ui-monospace, monospace; font-size: .9rem; }
select { width: 100%; min-width: 0; text-overflow: ellipsis; }
input[aria-invalid="true"] { border-color: var(--bad); }
button { background: var(--accent); color: #fff; border: 0; cursor: pointer; white-space: nowrap; }
button:disabled { opacity: .6; cursor: wait; }
/* The status line stays in sight while the answers scroll under it; an error says so in words, not only in red. */
#status { position: sticky; top: 0; z-index: 1; min-height: 2.5rem; margin: 0; padding: .5rem 0;
  background: var(--bg); border-bottom: 1px solid var(--line); color: var(--muted); overflow-wrap: anywhere; }
#status:empty { border-bottom-color: transparent; }
#status[data-kind="error"] { color: var(--bad-text); font-weight: 600; }
#status[data-kind="error"]::before { content: "Error: "; }
.hint { margin: 0; color: var(--muted); font-size: .85rem; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.card:focus { outline: 2px solid var(--accent); outline-offset: 2px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: .8rem; padding: 1.2rem 1.4rem; margin: 1rem 0;
  scroll-margin-top: 6rem; overflow-wrap: break-word; }
.card header { display: flex; align-items: center; gap: .8rem; margin-bottom: .8rem; }
.card h2 { margin: 0; font-size: 1.2rem; }
.card h3 { margin: 1rem 0 .4rem; font-size: 1rem; }
.card code { font-size: .8rem; color: var(--muted); word-break: break-all; }
.badge { display: inline-grid; place-items: center; min-width: 2.6rem; height: 2.6rem; padding: 0 .6rem; border-radius: .6rem;
  font-weight: 800; font-size: 1.3rem; color: #fff; background: var(--muted); }
.grade-A, .grade-B, .signal-BULLISH, .action-CONSIDER { background: var(--good); }
.grade-C, .signal-NEUTRAL, .action-WATCH, .action-DYOR { background: var(--warn); }
.grade-D, .grade-F, .signal-BEARISH, .action-AVOID { background: var(--bad); }
.signal-BULLISH, .signal-NEUTRAL, .signal-BEARISH, [class*="action-"] { font-size: .9rem; }
.row { display: flex; justify-content: space-between; gap: 1rem; padding: .3rem 0; border-bottom: 1px dashed var(--line); }
.label { color: var(--muted); }
.value { text-align: right; min-width: 0; overflow-wrap: anywhere; }
.good { color: var(--good-text); } .bad { color: var(--bad-text); font-weight: 700; }
.unknown { color: var(--warn-text); font-style: italic; }
.scope { margin: .8rem 0 0; padding: .4rem .7rem; border-left: 3px solid var(--warn); color: var(--muted); font-size: .9rem; }
.findings { list-style: none; padding: 0; margin: 0; }
.findings li { padding: .4rem 0; border-bottom: 1px solid var(--line); }
.findings p { margin: .1rem 0 0; color: var(--muted); font-size: .9rem; }
.severity { display: inline-block; min-width: 4.6rem; font-size: .75rem; font-weight: 800; text-transform: uppercase; }
.sev-critical .severity, .sev-high .severity { color: var(--bad-text); }
.sev-medium .severity { color: var(--warn-text); }
.sev-low .severity, .sev-info .severity { color: var(--muted); }
.summary { margin: .8rem 0 0; }
.deeper { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; margin-top: 1rem; }
details p { color: var(--muted); font-size: .92rem; white-space: pre-line; }
.caveat { margin: -.3rem 0 .6rem; color: var(--warn-text); font-size: .9rem; font-weight: 600; }
footer { margin-top: 3rem; color: var(--muted); font-size: .85rem; }
.watch-badge { background: var(--accent); font-size: .9rem; }
.watch-control { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; flex-basis: 100%; }
.watch-control select { width: auto; }
.watch-control .hint { flex-basis: 100%; }
.watch-alerts code, #watch-card code { overflow-wrap: anywhere; }
.watch-state { color: var(--muted); font-size: .9rem; }
.watch-state[data-ended="true"] { color: var(--warn-text); font-weight: 600; }
.watch-exit { font-size: .9rem; }
/* A phone (from 320 px): one column, nothing wider than the screen. */
@media (max-width: 34rem) {
  main { padding: 1rem .75rem 3rem; }
  .line { flex-direction: column; }
  .line input { flex: none; width: 100%; }
  .card { padding: 1rem; }
  .card header { flex-wrap: wrap; }
  .row { flex-direction: column; gap: 0; }
  .value { text-align: left; }
  .deeper button { flex: 1 1 100%; white-space: normal; }
  .watch-control select { flex: 1 1 100%; width: 100%; }
}
`
