"""Fold the stored search names again with tournaments.names.fold, which now also spells out the letters
Unicode does not decompose (ø → o, ł → l, æ → ae, đ → d, œ → oe, þ → th): "soren" finds Søren."""

from django.db import migrations

from tournaments.names import fold, folded_name

BATCH = 500


def refold(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    changed = []
    for player in Player.objects.only("pk", "first_name", "last_name", "search_name").iterator():
        folded = folded_name(player.first_name, player.last_name)
        if folded != player.search_name:
            player.search_name = folded
            changed.append(player)
    Player.objects.bulk_update(changed, ["search_name"], batch_size=BATCH)
    EMAPlayer = apps.get_model("tournaments", "EMAPlayer")
    changed = []
    for line in EMAPlayer.objects.only("pk", "ema_id", "first_name", "last_name", "search_text").iterator():
        folded = fold(f"{line.ema_id} {line.first_name} {line.last_name}")[:220]
        if folded != line.search_text:
            line.search_text = folded
            changed.append(line)
    EMAPlayer.objects.bulk_update(changed, ["search_text"], batch_size=BATCH)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_ema_number_ascii_digits"),
    ]

    operations = [
        migrations.RunPython(refold, migrations.RunPython.noop),
    ]
