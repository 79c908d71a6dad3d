from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_self_checkin"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="auto_call",
            field=models.BooleanField(
                default=True,
                help_text=(
                    "A table that frees goes to the next match in the queue. Off: it stays "
                    "free until you send a match to it from Round control."
                ),
                verbose_name="call tables automatically",
            ),
        ),
    ]
