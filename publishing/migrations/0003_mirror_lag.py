from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("publishing", "0002_publication_sent"),
    ]

    operations = [
        migrations.AddField(
            model_name="mirror",
            name="venue_through",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="mirror",
            name="last_change_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="mirror",
            name="lacking_since",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
