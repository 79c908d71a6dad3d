"""PhoneEvent, PhoneTally and DirectorCall leave the scoring app's state: they belong to
``tables`` now (``tables.0001_initial`` adds them there first, on the same tables). State
only: the tables ``scoring_phoneevent``, ``scoring_phonetally`` and
``scoring_directorcall`` and their rows stay where they are.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0007_phone_tallies"),
        ("tables", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(name="DirectorCall"),
                migrations.DeleteModel(name="PhoneEvent"),
                migrations.DeleteModel(name="PhoneTally"),
            ],
        ),
    ]
