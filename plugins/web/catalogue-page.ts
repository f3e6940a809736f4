/**
 * The page's catalogue beyond the mint form (web/catalogue.ts draws their answers): a wallet's intel,
 * the market's feeds. Each button's price is the manifests' (the page's config).
 */
export function catalogueSections(priced: (label: string, route: string) => string): string {
  return `<form id="wallet-form" class="more" autocomplete="off">
      <label for="wallet-address">Or a wallet address</label>
      <div class="line">
        <input id="wallet-address" name="wallet" placeholder="a Solana wallet (base58)" spellcheck="false" required />
        <button type="submit" id="wallet-go">${priced('Wallet intel', 'POST /wallet/intel')}</button>
      </div>
    </form>
    <section class="more" aria-labelledby="market-heading">
      <h2 id="market-heading" class="label-like">Or the market now</h2>
      <div class="deeper" id="market-actions"></div>
    </section>`
}

/** The catalogue's own styles: the pictures, the lists, the exit controls (nothing wider than the screen). */
export const CATALOGUE_STYLE = `
.more { margin: 0 0 1rem; display: grid; gap: .4rem; }
.label-like { font-size: .9rem; font-weight: 600; margin: 0; }
.line { flex-wrap: wrap; }
.line input { min-width: 0; }
.picture { margin: .8rem 0; max-width: 100%; }
.picture svg { display: block; width: 100%; max-width: 34rem; height: auto; color: var(--fg); }
.picture-grade svg { max-width: 14rem; }
.picture figcaption { font-size: .9rem; color: var(--muted); margin-top: .3rem; }
.picture-data { font-size: .8rem; color: var(--muted); border-collapse: collapse; margin-top: .3rem; }
.picture-data caption { text-align: left; font-weight: 600; }
.picture-data th { text-align: left; font-weight: 400; padding-right: 1rem; }
.picture-data td { overflow-wrap: anywhere; }
.picture-data td .nowrap, .nowrap { white-space: nowrap; }
.mint-actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.exit-controls { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
.exit-size { width: 7rem; }
.exit-slider { width: 9rem; max-width: 100%; padding: 0; }
.exit-CLEAN { background: var(--good); } .exit-COSTLY { background: var(--warn); }
.exit-PUNITIVE, .exit-BLOCKED { background: var(--bad); }
.exit-CLEAN, .exit-COSTLY, .exit-PUNITIVE, .exit-BLOCKED, .exit-NOT_RATED, .verdict, .signal-MIXED { font-size: .9rem; }
.hint { color: var(--muted); font-size: .85rem; }
.lean { display: flex; gap: 2px; margin: .5rem 0; font-size: .8rem; }
.lean span { padding: .2rem .4rem; white-space: nowrap; overflow: hidden; min-width: 0; }
.lean-bull { background: color-mix(in srgb, var(--good) 25%, transparent); border-bottom: 3px solid var(--good); }
.lean-bear { background: color-mix(in srgb, var(--bad) 25%, transparent); border-bottom: 3px dashed var(--bad); }
.lean-neutral { background: var(--line); border-bottom: 3px dotted var(--muted); }
.table-scroll { overflow-x: auto; max-width: 100%; }
table.list { border-collapse: collapse; width: 100%; font-size: .9rem; }
table.list th, table.list td { padding: .3rem .4rem; border-bottom: 1px solid var(--line); text-align: left; }
table.list .number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.list .score { min-width: 6rem; }
.score-bar { display: block; max-width: 8rem; color: var(--fg); }
.suggest-controls { align-items: end; }
.field { display: inline-grid; gap: .15rem; }
.field select { width: auto; }
.card header .refresh { margin-left: auto; font-size: .85rem; padding: .35rem .6rem; }
.verdict-area { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: 0 0 .6rem; }
/* A phone: each listed token a small card of labelled cells (grade included), no sideways scroll. */
@media (max-width: 34rem) {
  table.list thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  table.list, table.list tbody { display: block; }
  table.list tr { display: grid; grid-template-columns: 1fr 1fr; gap: .1rem .8rem; padding: .5rem 0; border-bottom: 1px solid var(--line); }
  table.list td { display: block; border: 0; padding: .1rem 0; text-align: left; min-width: 0; overflow-wrap: anywhere; }
  table.list td.number { text-align: left; white-space: normal; }
  table.list td::before { content: attr(data-label); display: block; color: var(--muted); font-size: .75rem; }
  table.list .score { min-width: 0; }
  .card header .refresh { margin-left: 0; }
}
.mini-grade { display: inline-block; min-width: 1.6rem; text-align: center; border-radius: .3rem; color: #fff; font-weight: 800; }
.token-link { color: var(--accent); font-weight: 600; }
@media (prefers-color-scheme: dark) { .token-link { color: #a898ff; } }
.reasons { margin: .4rem 0; padding-left: 1.2rem; color: var(--muted); font-size: .9rem; }
`
