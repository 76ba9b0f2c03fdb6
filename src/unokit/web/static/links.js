// Links shown for others to open (invite, replays) start with the base the server names (GET /api/site,
// docs/web.md): its public URL, its network address for a page opened on its own machine, else this origin.

export const site = { base: /** @type {string | null} */ (null), network: false, localOnly: false };

/** @type {Promise<void> | undefined} */
let loading;

/** Ask the server once where its links lead (on failure, they stay on this origin). */
export function loadSite() {
  loading ??= fetch("/api/site", { cache: "no-store" })
    .then((response) => response.json())
    .then((/** @type {Record<string, unknown>} */ answer) => {
      if (typeof answer.base === "string" && /^https?:\/\/[^/?#]+$/.test(answer.base)) site.base = answer.base;
      site.network = answer.network === true && site.base !== null;
      site.localOnly = answer.local_only === true;
    })
    .catch(() => {});
  return loading;
}

/** @param {string} path e.g. `/r/CODE`: the link others open */
export const shareLink = (path) => new URL(path, site.base ?? location.origin).href;
