// Service worker of the table entry pages: the last copy of each table page and its static files, so
// that a table page once visited opens without a network. Writes are never cached or replayed here: the
// page keeps its own queue of hands and sends it when the network is back. The page copies belong to the
// account signed in and end with its session: a sign-in or sign-out (a POST to ACCOUNT_PATHS or to a
// one-time sign-in link, online or not) forgets them all; a page shown to another account, or to nobody,
// forgets the copies of any other (its script says which account: a message "account"); a copy past the
// end of the session it was taken in (UNTIL_HEADER) is forgotten instead of shown.
const CACHE = {{ cache_name|safe }};
const STATIC_URLS = {{ static_urls|safe }};
const TABLE_PAGE = new RegExp({{ page_pattern|safe }});
// The answer for a table page never opened here, per language: that of the last page shown (its script
// says, with the account), else the browser's first the site has, else English.
const OFFLINE_TEXTS = {{ offline_texts|safe }};
let pageLanguage = "";

function offlineText() {
  const wanted = [pageLanguage, ...(self.navigator.languages || [])].filter(Boolean);
  for (const tag of wanted) {
    const code = tag.toLowerCase().split("-")[0];
    if (OFFLINE_TEXTS[code]) return OFFLINE_TEXTS[code];
  }
  return OFFLINE_TEXTS.en;
}
const ACCOUNT_PATHS = {{ account_paths|safe }};
const SIGN_IN_LINK = new RegExp({{ sign_in_link|safe }});
const ACCOUNT_HEADER = {{ account_header|safe }};
const UNTIL_HEADER = {{ until_header|safe }};
// Answers that say the page is no longer this phone's to see: its copy goes too.
const GONE = [403, 404, 410];

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

function offline() {
  return new Response(offlineText(), { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

function expired(response) {
  const until = Number(response.headers.get(UNTIL_HEADER) || 0);
  return until > 0 && Date.now() >= until;
}

function tablePage(request) {
  // Network first: the newest state of the table when there is a network, the last copy otherwise.
  const url = new URL(request.url);
  return fetch(request)
    .then((response) => {
      if (response.ok && !response.redirected) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
      } else if (response.redirected || GONE.includes(response.status)) {
        caches.open(CACHE).then((cache) => cache.delete(url.pathname));
      }
      return response;
    })
    .catch(() =>
      caches.open(CACHE).then((cache) =>
        cache.match(url.pathname).then((cached) => {
          if (cached && expired(cached)) return cache.delete(url.pathname).then(offline);
          return cached || offline();
        })
      )
    );
}

function forgetPages(keep) {
  // Every copy but the static files (or those ``keep(response)`` keeps): what one account saw never
  // opens for the next one.
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
                  .map((r) =>
                    (keep ? cache.match(r) : Promise.resolve(null)).then((response) =>
                      response && keep(response) ? false : cache.delete(r)
                    )
                  )
              )
            )
          )
        )
    )
  );
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "account" && typeof data.language === "string") pageLanguage = data.language;
  if (data.type === "account" && typeof data.account === "string") {
    // a page shown to this account (or to nobody): the copies taken for any other account go
    event.waitUntil(
      forgetPages((response) => (response.headers.get(ACCOUNT_HEADER) || "") === data.account && !expired(response))
    );
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && (ACCOUNT_PATHS.includes(url.pathname) || SIGN_IN_LINK.test(url.pathname))) {
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

// Web Push (notifications/): a message the server sent to this phone (JSON: title, body, url, tag, lang) is
// shown as a notification; a newer one of the same kind (tag) replaces the older. A tap opens the page it
// names (a page of this site only), focusing a window already showing it.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = { title: event.data ? event.data.text() : "" };
  }
  const title = String(data.title || data.tournament || "");
  const options = {
    body: String(data.body || ""),
    tag: String(data.tag || "news"),
    lang: String(data.lang || ""),
    renotify: Boolean(data.tag),
    icon: {{ icon_url|safe }},
    data: { url: String(data.url || "/") },
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  const url = target.origin === self.location.origin ? target.href : self.location.origin + "/";
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => w.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    })
  );
});
