// The style sheet of the HTML report (one inline <style>, allowed by its
// hash in the page's Content-Security-Policy).

/** The report's CSS. */
export const HTML_STYLE = `
:root { color-scheme: light; --http: #1f6feb; --grpc: #8250df; --queue: #bf8700; --temporal: #1a7f37; --other: #57606a; --bad: #cf222e; }
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.4 system-ui, sans-serif; color: #1f2328; background: #f6f8fa; }
header { position: sticky; top: 0; z-index: 3; display: flex; flex-wrap: wrap; gap: 12px; align-items: center; padding: 8px 12px; background: #fff; border-bottom: 1px solid #d0d7de; }
header h1 { margin: 0 8px 0 0; font-size: 15px; }
header label { display: inline-flex; gap: 4px; align-items: center; white-space: nowrap; }
header input[type=search] { width: 220px; padding: 3px 6px; }
header button { padding: 3px 8px; }
#summary { color: #57606a; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; }
#layout { display: flex; align-items: flex-start; }
#canvas { position: relative; flex: 1; overflow: auto; padding: 16px; min-height: calc(100vh - 50px); }
#map { position: relative; display: flex; gap: 90px; align-items: flex-start; width: max-content; }
#edges { position: absolute; left: 0; top: 0; pointer-events: none; overflow: visible; }
#edges path { fill: none; stroke-opacity: 0.55; pointer-events: stroke; cursor: pointer; }
#edges path:hover, #edges path.selected { stroke-opacity: 1; }
#edges path.unmatched { stroke: var(--bad); stroke-dasharray: 5 4; }
.col { display: flex; flex-direction: column; gap: 16px; }
.svc { width: 260px; background: #fff; border: 1px solid #d0d7de; border-radius: 6px; }
.svc.hidden, .node.hidden { display: none; }
.svc-head { display: flex; align-items: center; gap: 6px; width: 100%; padding: 6px 8px; border: 0; background: #eaeef2; border-radius: 6px 6px 0 0; font: inherit; font-weight: 600; text-align: left; cursor: pointer; }
.svc.collapsed .svc-head { border-radius: 6px; }
.svc.collapsed .nodes { display: none; }
.svc-head .count { margin-left: auto; font-weight: 400; color: #57606a; }
.nodes { margin: 0; padding: 4px 0; list-style: none; }
.node { display: flex; gap: 4px; align-items: center; padding: 2px 8px; cursor: pointer; overflow-wrap: anywhere; }
.node:hover, .node.selected { background: #ddf4ff; }
.badge { margin-left: auto; padding: 0 5px; border-radius: 8px; background: var(--bad); color: #fff; font-size: 11px; }
.match { outline: 2px solid #fb8500; }
#details { position: sticky; top: 50px; width: 420px; max-height: calc(100vh - 50px); overflow: auto; padding: 12px; background: #fff; border-left: 1px solid #d0d7de; }
#details h2 { margin: 0 0 8px; font-size: 14px; }
#details ol { margin: 0; padding-left: 18px; }
#details li { margin-bottom: 8px; }
.where { font-family: ui-monospace, monospace; font-size: 12px; overflow-wrap: anywhere; }
.key { font-family: ui-monospace, monospace; font-weight: 600; overflow-wrap: anywhere; }
.muted { color: #57606a; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 11px; }
`;
