from django.db import models

from .fields import UlidAutoField, UlidFlakeField


# recipe: django model
class Item(models.Model):
    id = UlidAutoField(primary_key=True)
    name = models.TextField()
    flake = UlidFlakeField(null=True)
# recipe: end
