import re
import pytest
from django.contrib.auth import get_user_model
from tournaments.demo import load_demo
from tests.tournaments.test_spanish_pages import english_phrases, text_of

pytestmark = pytest.mark.django_db

def test_explore(client):
    load_demo()
    client.force_login(get_user_model().objects.get(username="admin"))
    phrases = english_phrases()
    words = set("the of and to is are not yet with from this that for by table tables hand hands player players session sessions points seat wind penalty score".split())
    seen=set(); queue=["/", "/t/demo-open-2026/", "/t/demo-riichi-cup-2026/", "/t/demo-liga-mayon-2026/"]
    out=open("/tmp/words/explore/out.txt","w"); n=0
    while queue and n<700:
        url=queue.pop(0)
        if url in seen: continue
        seen.add(url)
        if any(s in url for s in ("logout","/admin/","delete","/remove","download","/api/")): continue
        r=client.get(url, HTTP_ACCEPT_LANGUAGE="es"); n+=1
        if r.status_code!=200 or "html" not in r.get("Content-Type",""): continue
        page=r.content.decode()
        for line in filter(None,(l.strip() for l in text_of(page).splitlines())):
            hits=[p for p in phrases if p in line and re.search(rf"(?<!\w){re.escape(p)}(?!\w)", line)]
            w=[x for x in re.findall(r"[A-Za-z]+", line) if x.lower() in words]
            if hits or w: out.write(f"{url}\t{line[:150]}\t{hits[:2]}{w[:3]}\n")
        for href in re.findall(r'href="([^"#?]+)', page):
            if href.startswith("/") and not href.startswith("/static") and href not in seen: queue.append(href)
    out.close()
