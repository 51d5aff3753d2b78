// Service worker of the table entry pages: the last copy of each table page and its static files, so
// that a table page once visited opens without a network. Writes are never cached or replayed here: the
// page keeps its own queue of hands and sends it when the network is back. The page copies belong to the
// account signed in: a sign-in or sign-out (a POST to ACCOUNT_PATHS, online or not) forgets them all.
const CACHE = {{ cache_name|safe }};
const STATIC_URLS = {{ static_urls|safe }};
const TABLE_PAGE = new RegExp({{ page_pattern|safe }});
const OFFLINE_TEXT = {{ offline_text|safe }};
const ACCOUNT_PATHS = {{ account_paths|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(STATIC_URLS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("entry-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
  );
});

function tablePage(request) {
  // Network first: the newest state of the table when there is a network, the last copy otherwise.
  const url = new URL(request.url);
  return fetch(request)
    .then((response) => {
      if (response.ok && !response.redirected) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
      }
      return response;
    })
    .catch(() =>
      caches.match(url.pathname, { cacheName: CACHE }).then(
        (cached) => cached || new Response(OFFLINE_TEXT, { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } })
      )
    );
}

function forgetPages() {
  // Every copy but the static files: what one account saw never opens for the next one.
  return caches.keys().then((names) =>
    Promise.all(
      names
        .filter((n) => n.startsWith("entry-"))
        .map((n) =>
          caches.open(n).then((cache) =>
            cache.keys().then((requests) =>
              Promise.all(
                requests
                  .filter((r) => !STATIC_URLS.includes(new URL(r.url).pathname))
                  .map((r) => cache.delete(r))
              )
            )
          )
        )
    )
  );
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && ACCOUNT_PATHS.includes(url.pathname)) {
    event.waitUntil(forgetPages()); // the request itself goes to the network as usual
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate" && TABLE_PAGE.test(url.pathname)) {
    event.respondWith(tablePage(request));
  } else if (STATIC_URLS.includes(url.pathname)) {
    event.respondWith(caches.match(url.pathname, { cacheName: CACHE }).then((cached) => cached || fetch(request)));
  }
});
