"""One tournament's money: the director's money page, payments, side pots, and the
public prizes page (its PDF is printed by :mod:`printing`, at ``/t/<slug>/prizes.pdf``)."""

from django.urls import path

from money import views

app_name = "money"

urlpatterns = [
    path("t/<slug:slug>/manage/money/", views.money_page, name="money"),
    path("t/<slug:slug>/manage/money/save/", views.money_save, name="money-save"),
    path(
        "t/<slug:slug>/manage/money/entries/<int:entry_id>/",
        views.payment_save,
        name="payment-save",
    ),
    path(
        "t/<slug:slug>/manage/money/side-pots/",
        views.side_pot_create,
        name="side-pot-create",
    ),
    path(
        "t/<slug:slug>/manage/money/side-pots/<int:pot_id>/",
        views.side_pot_save,
        name="side-pot-save",
    ),
    path(
        "t/<slug:slug>/manage/money/side-pots/<int:pot_id>/entrants/",
        views.side_pot_entrants,
        name="side-pot-entrants",
    ),
    path(
        "t/<slug:slug>/manage/money/side-pots/<int:pot_id>/delete/",
        views.side_pot_delete,
        name="side-pot-delete",
    ),
    path("t/<slug:slug>/prizes/", views.prizes_page, name="prizes"),
]
