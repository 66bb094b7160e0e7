/**
 * The console's stylesheet, served from `<path>/console.css`. Large tap
 * targets, one column on a phone, contrast above WCAG AA, a visible focus ring.
 */
export const CONSOLE_STYLE = `
:root { color-scheme: light; --ink: #1a1a1a; --muted: #4a4a4a; --line: #c8c8c8; --bg: #fafafa;
  --ok: #0b6b2f; --no: #a4161a; --focus: #1a4fd6; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--focus); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; z-index: 1; }
.banner { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .75rem 1rem;
  background: #fff; border-bottom: 1px solid var(--line); }
.banner h1 { font-size: 1.25rem; margin: 0; }
.banner nav a { display: inline-block; padding: .5rem; min-height: 44px; }
.banner nav a[aria-current] { font-weight: 700; color: var(--ink); }
.signout { margin-left: auto; display: flex; gap: .5rem; align-items: center; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
.count { font-size: 1.1rem; }
.status { min-height: 1.5em; color: var(--muted); }
.asks { list-style: none; padding: 0; margin: 0; display: grid; gap: 1rem; }
.ask article { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1rem; }
.ask h2 { margin: 0 0 .25rem; font-size: 1.15rem; word-break: break-word; }
.prompt { margin: 0 0 .5rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0 0 .75rem; }
dt { color: var(--muted); }
dd { margin: 0; min-width: 0; }
pre { margin: 0; white-space: pre-wrap; word-break: break-all; font-size: .9rem; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.actions label { flex-basis: 100%; color: var(--muted); }
.reason { flex: 1 1 12rem; min-height: 44px; font: inherit; padding: .5rem; border: 1px solid var(--muted);
  border-radius: 6px; }
.reason[aria-invalid] { border-color: var(--no); }
button { min-height: 44px; min-width: 44px; padding: .5rem 1rem; font: inherit; border-radius: 6px;
  border: 1px solid var(--ink); background: #fff; color: var(--ink); cursor: pointer; }
button.approve { background: var(--ok); border-color: var(--ok); color: #fff; }
button.deny { background: var(--no); border-color: var(--no); color: #fff; }
button:disabled { opacity: .6; cursor: wait; }
.problem { color: var(--no); font-weight: 600; margin: .5rem 0 0; }
.pager { display: flex; justify-content: space-between; align-items: center; margin-top: 1rem; }
.pager a { display: inline-block; padding: .6rem 1rem; min-height: 44px; }
.table { overflow-x: auto; }
/* The pending asks and the running tasks side by side where the screen allows. */
@media (min-width: 75rem) {
  main.desk:has(> .tasks) { max-width: 96rem; display: grid; grid-template-columns: 3fr 2fr; gap: 2rem; align-items: start; }
}
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: .5rem; border-bottom: 1px solid var(--line); vertical-align: top;
  word-break: break-word; }
caption { text-align: left; color: var(--muted); padding: .5rem 0; }
/*
 * The Audit page's tables have ten short columns: words stay whole (a column is as wide as its
 * longest word, the table scrolls sideways where the screen is narrow), and the page takes the
 * width a wide screen has.
 */
main.audit { max-width: 96rem; }
main.audit th, main.audit td { word-break: normal; overflow-wrap: normal; }
main.audit time { white-space: nowrap; }
@media (max-width: 40rem) {
  .signout { margin-left: 0; width: 100%; justify-content: space-between; }
  dl { grid-template-columns: 1fr; }
  dt { font-size: .9rem; }
  .actions button { flex: 1 1 40%; }
}
`;
