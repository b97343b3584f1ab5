/** The page of a hosted link that leads nowhere: plain HTML, no script, nothing of any app. */
export function linkNotFoundPage(reason: 'UNKNOWN_CODE' | 'NO_LANDING_URL'): string {
  const text =
    reason === 'UNKNOWN_CODE'
      ? 'This referral link does not exist. Check that it was copied whole.'
      : 'This referral link has no page to lead to yet.';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Link not found</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1f2933;line-height:1.5}</style>
</head>
<body>
<main>
<h1>Link not found</h1>
<p>${text}</p>
</main>
</body>
</html>
`;
}

/**
 * Headers of every hosted-link answer: never kept by a shared cache (each
 * visit counts, and a redirect's cookie is the visitor's), never indexed,
 * and a page that runs no script and cannot be framed.
 */
export const LINK_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
