"""The money models leave the club app's state: they belong to ``money`` now
(``money.0001_initial`` adds them there first, on the same tables). State only: the tables
``club_tournamentmoney``, ``club_payment``, ``club_sidepot`` and ``club_sidepotentry`` and
their rows stay where they are.
"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0004_payout_rounding_at_least_a_cent'),
        ('money', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(name='SidePotEntry'),
                migrations.DeleteModel(name='SidePot'),
                migrations.DeleteModel(name='Payment'),
                migrations.DeleteModel(name='TournamentMoney'),
            ],
        ),
    ]
