// "Notify me on this phone": the panel of templates/notifications/_panel.html. Registers the site's service
// worker (the table pages' one, scope "/", which shows the messages), asks the browser for a push
// subscription with the server's public key and sends it with the news chosen; lists the phones notified
// (this one recognised by the hash of its own address) and removes them. Where the browser cannot push
// (iOS outside a home-screen app, a refusal, no https) the panel says why.
(function () {
  "use strict";

  function csrf() {
    try {
      const headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}");
      if (headers["X-CSRFToken"]) return headers["X-CSRFToken"];
    } catch (e) { /* the cookie then */ }
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  function keyBytes(base64url) {
    const text = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(text);
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }

  async function hash(text) {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("").slice(0, 32);
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), Accept: "application/json" },
      body: body === undefined ? "{}" : JSON.stringify(body),
    });
  }

  function reason(panel) {
    const why = panel.querySelector("[data-push-why]");
    if (!panel.dataset.key) return gettext("This server does not send notifications. This page shows the same news while it is open.");
    if (!window.isSecureContext) return gettext("Notifications need a secure (https) connection. This page shows the same news while it is open.");
    const ios = /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
    const standalone = window.navigator.standalone === true || window.matchMedia("(display-mode: standalone)").matches;
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      return ios && !standalone ? gettext("On an iPhone or iPad, add this site to the home screen first (Share, then Add to Home Screen) and open it from there: only then can it receive notifications. This page shows the same news while it is open.") : gettext("This browser cannot receive notifications. This page shows the same news while it is open.");
    }
    if (Notification.permission === "denied") return gettext("Notifications are blocked for this site in the browser settings. Allow them there to be notified; this page shows the same news while it is open.");
    return "";
  }

  function setup(panel) {
    const url = panel.dataset.url;
    const why = panel.querySelector("[data-push-why]");
    const status = panel.querySelector("[data-push-status]");
    const list = panel.querySelector("[data-push-phones]");
    const start = panel.querySelector("[data-push-subscribe]");
    const stop = panel.querySelector("[data-push-stop]");
    const boxes = Array.from(panel.querySelectorAll('input[name="push-topic"]'));
    let mine = null; // this phone's subscription, when it has one

    function say(text) { status.textContent = text || ""; }

    function explain() {
      const text = reason(panel);
      why.textContent = text;
      why.hidden = !text;
      start.disabled = Boolean(text);
      return !text;
    }

    async function current() {
      if (!("serviceWorker" in navigator) || !("PushManager" in window)) return null;
      const registration = await navigator.serviceWorker.getRegistration("/");
      return registration ? registration.pushManager.getSubscription() : null;
    }

    async function refresh() {
      const answer = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!answer.ok) return;
      const data = await answer.json();
      mine = await current().catch(() => null);
      const own = mine ? await hash(mine.endpoint) : "";
      list.textContent = "";
      let ours = null;
      for (const phone of data.phones) {
        const item = document.createElement("li");
        const isThis = phone.phone === own;
        if (isThis) ours = phone;
        const since = new Date(phone.created).toLocaleDateString(document.documentElement.lang || undefined);
        item.append(`${isThis ? gettext("This phone") : gettext("Another phone")} · ${phone.language.toUpperCase()} · ${gettext("since")} ${since} `);
        const remove = document.createElement("button");
        remove.type = "button";
        remove.className = "outline secondary small";
        remove.textContent = gettext("Remove");
        remove.addEventListener("click", async () => {
          const done = await post(`${url}${phone.id}/delete/`);
          if (done.ok && isThis && mine) await mine.unsubscribe().catch(() => {});
          say(done.ok ? gettext("This phone will no longer be notified.") : gettext("That did not work; try again."));
          refresh();
        });
        item.append(remove);
        list.append(item);
      }
      if (!data.phones.length) {
        const item = document.createElement("li");
        item.textContent = gettext("None.");
        list.append(item);
      }
      if (ours) {
        boxes.forEach((box) => { box.checked = ours.topics.includes(box.value); });
      }
      stop.hidden = !ours;
      if (!status.textContent) say(ours ? gettext("This phone is notified of the news chosen above.") : gettext("This phone is not notified."));
    }

    start.addEventListener("click", async () => {
      if (!explain()) return;
      const topics = boxes.filter((b) => b.checked).map((b) => b.value);
      if (!topics.length) { boxes[0].focus(); return; }
      try {
        const registration = await navigator.serviceWorker.register(panel.dataset.sw, { scope: "/" });
        await navigator.serviceWorker.ready;
        const permission = await Notification.requestPermission();
        if (permission !== "granted") { explain(); say(gettext("This phone is not notified.")); return; }
        // a browser whose push service does not answer (no network, none at all) is not waited for long
        const late = new Promise((resolve, reject) => setTimeout(() => reject(new Error("no answer")), 20000));
        const subscription = (await registration.pushManager.getSubscription())
          || (await Promise.race([late, registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(panel.dataset.key) })]));
        const answer = await post(url, { ...subscription.toJSON(), topics });
        say(answer.ok ? gettext("Saved: this phone will be notified.") : gettext("That did not work; try again."));
      } catch (e) {
        say(gettext("That did not work; try again."));
      }
      refresh();
    });

    stop.addEventListener("click", async () => {
      const subscription = await current().catch(() => null);
      if (!subscription) return;
      const answer = await post(url, { remove: true, endpoint: subscription.endpoint });
      if (answer.ok) await subscription.unsubscribe().catch(() => {});
      say(answer.ok ? gettext("This phone will no longer be notified.") : gettext("That did not work; try again."));
      refresh();
    });

    explain();
    refresh().catch(() => {});
  }

  document.querySelectorAll("[data-push-panel]").forEach(setup);
})();
