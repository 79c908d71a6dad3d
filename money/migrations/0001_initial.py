"""The money models move from the club app into this one (state only).

``TournamentMoney``, ``Payment``, ``SidePot`` and ``SidePotEntry`` were created by the club
migrations 0002 to 0004 and keep their tables (``club_tournamentmoney``, ``club_payment``,
``club_sidepot``, ``club_sidepotentry``, named in their ``Meta.db_table``). This migration
only tells Django's state that the models now belong to ``money``; the database is not
touched, so a database migrated before keeps every row, and a fresh one gets the same
tables from the club migrations. ``club.0005_money_moves_to_money_app`` then removes the
models from the club app's state (also state only).
"""

import django.core.validators
import django.db.models.deletion
from decimal import Decimal
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('club', '0004_payout_rounding_at_least_a_cent'),
        ('tournaments', '0008_merge_stages_teams_club'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='SidePot',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('payout', models.JSONField(blank=True, default=list, help_text='Percent of the prize pool per place, adding up to 100.', verbose_name='payout table')),
                        ('rounding', models.DecimalField(decimal_places=2, default=1, max_digits=8, validators=[django.core.validators.MinValueValidator(Decimal('0.01'))], verbose_name='round prizes to')),
                        ('name', models.CharField(max_length=80, verbose_name='name')),
                        ('buy_in', models.DecimalField(decimal_places=2, max_digits=8, validators=[django.core.validators.MinValueValidator(0)], verbose_name='buy-in')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='side_pots', to='tournaments.tournament', verbose_name='tournament')),
                    ],
                    options={
                        'verbose_name': 'side pot',
                        'verbose_name_plural': 'side pots',
                        'db_table': 'club_sidepot',
                        'ordering': ['pk'],
                    },
                ),
                migrations.CreateModel(
                    name='SidePotEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('entry', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='side_pot_entries', to='tournaments.entry', verbose_name='entry')),
                        ('pot', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entrants', to='money.sidepot', verbose_name='side pot')),
                    ],
                    options={
                        'verbose_name': 'side pot entry',
                        'verbose_name_plural': 'side pot entries',
                        'db_table': 'club_sidepotentry',
                    },
                ),
                migrations.CreateModel(
                    name='TournamentMoney',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('payout', models.JSONField(blank=True, default=list, help_text='Percent of the prize pool per place, adding up to 100.', verbose_name='payout table')),
                        ('rounding', models.DecimalField(decimal_places=2, default=1, max_digits=8, validators=[django.core.validators.MinValueValidator(Decimal('0.01'))], verbose_name='round prizes to')),
                        ('entry_fee', models.DecimalField(decimal_places=2, default=0, max_digits=8, validators=[django.core.validators.MinValueValidator(0)], verbose_name='entry fee')),
                        ('currency', models.CharField(blank=True, default='€', max_length=8, verbose_name='currency')),
                        ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='money', to='tournaments.tournament', verbose_name='tournament')),
                    ],
                    options={
                        'verbose_name': 'tournament money',
                        'verbose_name_plural': 'tournament money',
                        'db_table': 'club_tournamentmoney',
                    },
                ),
                migrations.CreateModel(
                    name='Payment',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('method', models.CharField(choices=[('cash', 'Cash'), ('card', 'Card'), ('free', 'Free')], max_length=8, verbose_name='paid by')),
                        ('amount', models.DecimalField(decimal_places=2, max_digits=8, validators=[django.core.validators.MinValueValidator(0)], verbose_name='amount')),
                        ('entry', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='payment', to='tournaments.entry', verbose_name='entry')),
                    ],
                    options={
                        'verbose_name': 'payment',
                        'verbose_name_plural': 'payments',
                        'db_table': 'club_payment',
                        'constraints': [models.CheckConstraint(condition=models.Q(('method__in', ['cash', 'card', 'free'])), name='payment_method_valid'), models.CheckConstraint(condition=models.Q(('amount__gte', 0)), name='payment_amount_positive')],
                    },
                ),
                migrations.AddConstraint(
                    model_name='sidepot',
                    constraint=models.UniqueConstraint(fields=('tournament', 'name'), name='side_pot_name_once'),
                ),
                migrations.AddConstraint(
                    model_name='sidepot',
                    constraint=models.CheckConstraint(condition=models.Q(('buy_in__gte', 0)), name='side_pot_buy_in_positive'),
                ),
                migrations.AddConstraint(
                    model_name='sidepot',
                    constraint=models.CheckConstraint(condition=models.Q(('rounding__gt', 0)), name='side_pot_rounding_positive'),
                ),
                migrations.AddConstraint(
                    model_name='sidepotentry',
                    constraint=models.UniqueConstraint(fields=('pot', 'entry'), name='side_pot_entry_once'),
                ),
            ],
        ),
    ]
