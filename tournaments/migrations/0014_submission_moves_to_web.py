"""The Submission model leaves the tournaments app's state: it belongs to ``web`` now
(``web.0001_initial`` adds it there first, on the same table). State only: the table
``tournaments_submission`` and its rows stay where they are.
"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0013_tournament_auto_call'),
        ('web', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(name='Submission'),
            ],
        ),
    ]
